"""gateway: why a page failed, and the document's warnings (a repaired PDF)."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "gateway_0002"
down_revision = "gateway_0001"
SCHEMA = "gateway"


def upgrade() -> None:
    op.add_column("job_pages", sa.Column("error", sa.Text), schema=SCHEMA)
    op.add_column("jobs", sa.Column("warnings", JSONB), schema=SCHEMA)


def downgrade() -> None:
    op.drop_column("jobs", "warnings", schema=SCHEMA)
    op.drop_column("job_pages", "error", schema=SCHEMA)
