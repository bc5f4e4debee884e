"""binder: the threshold profiles published by the gateway, by version (read model)."""

from alembic import op

from skuflow_platform.profiles import create_profiles_table

revision = "binder_0003"
down_revision = "binder_0002"
SCHEMA = "binder"


def upgrade() -> None:
    create_profiles_table(op, SCHEMA)


def downgrade() -> None:
    op.drop_table("profiles", schema=SCHEMA)
