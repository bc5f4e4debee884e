"""evaluator: the threshold profiles published by the gateway, by version (read model)."""

from alembic import op

from skuflow_platform.profiles import create_profiles_table

revision = "evaluator_0003"
down_revision = "evaluator_0002"
SCHEMA = "evaluator"


def upgrade() -> None:
    create_profiles_table(op, SCHEMA)


def downgrade() -> None:
    op.drop_table("profiles", schema=SCHEMA)
