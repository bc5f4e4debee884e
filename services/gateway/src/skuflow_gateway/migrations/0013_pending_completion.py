"""gateway: a job.completed held back until the gateway has read the pages it reports."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "gateway_0013"
down_revision = "gateway_0012"
SCHEMA = "gateway"


def upgrade() -> None:
    op.add_column("jobs", sa.Column("pending_completion", JSONB), schema=SCHEMA)
    op.add_column("jobs", sa.Column("completion_pending_since", sa.DateTime(timezone=True)), schema=SCHEMA)


def downgrade() -> None:
    op.drop_column("jobs", "completion_pending_since", schema=SCHEMA)
    op.drop_column("jobs", "pending_completion", schema=SCHEMA)
