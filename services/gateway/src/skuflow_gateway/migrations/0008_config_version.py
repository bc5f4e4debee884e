"""gateway: the profile version a job was frozen to at upload, for its pages' retries."""

import sqlalchemy as sa
from alembic import op

revision = "gateway_0008"
down_revision = "gateway_0007"
SCHEMA = "gateway"


def upgrade() -> None:
    op.add_column("jobs", sa.Column("config_version", sa.Text), schema=SCHEMA)


def downgrade() -> None:
    op.drop_column("jobs", "config_version", schema=SCHEMA)
