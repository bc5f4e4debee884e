"""extractor: the threshold profiles published by the gateway, by version (read model)."""

from alembic import op

from skuflow_platform.profiles import create_profiles_table

revision = "extractor_0004"
down_revision = "extractor_0003"
SCHEMA = "extractor"


def upgrade() -> None:
    create_profiles_table(op, SCHEMA)


def downgrade() -> None:
    op.drop_table("profiles", schema=SCHEMA)
