"""gateway: when a job's stored files were removed by the retention cleanup."""

import sqlalchemy as sa
from alembic import op

revision = "gateway_0012"
down_revision = "gateway_0011"
SCHEMA = "gateway"


def upgrade() -> None:
    op.add_column("jobs", sa.Column("files_purged_at", sa.DateTime(timezone=True)), schema=SCHEMA)


def downgrade() -> None:
    op.drop_column("jobs", "files_purged_at", schema=SCHEMA)
