"""classifier: the threshold profiles published by the gateway, by version (read model)."""

from alembic import op

from skuflow_platform.profiles import create_profiles_table

revision = "classifier_0002"
down_revision = "classifier_0001"
SCHEMA = "classifier"


def upgrade() -> None:
    create_profiles_table(op, SCHEMA)


def downgrade() -> None:
    op.drop_table("profiles", schema=SCHEMA)
