"""gateway: the traceparent of a job's upload span, which links the job to its trace (GET /jobs/{id})."""

import sqlalchemy as sa
from alembic import op

revision = "gateway_0016"
down_revision = "gateway_0015"
SCHEMA = "gateway"


def upgrade() -> None:
    op.add_column("jobs", sa.Column("traceparent", sa.Text), schema=SCHEMA)


def downgrade() -> None:
    op.drop_column("jobs", "traceparent", schema=SCHEMA)
