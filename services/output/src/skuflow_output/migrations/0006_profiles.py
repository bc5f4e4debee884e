"""output: the threshold profiles published by the gateway, by version (read model): the category a
delivered SKU's fill rate is counted under."""

from alembic import op

from skuflow_platform.profiles import create_profiles_table

revision = "output_0006"
down_revision = "output_0005"
SCHEMA = "output"


def upgrade() -> None:
    create_profiles_table(op, SCHEMA)


def downgrade() -> None:
    op.drop_table("profiles", schema=SCHEMA)
