"""gateway: the evaluator's report on each job, for GET /jobs/{id}/evaluation."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "gateway_0005"
down_revision = "gateway_0004"
SCHEMA = "gateway"


def upgrade() -> None:
    op.add_column("jobs", sa.Column("evaluation", JSONB), schema=SCHEMA)


def downgrade() -> None:
    op.drop_column("jobs", "evaluation", schema=SCHEMA)
