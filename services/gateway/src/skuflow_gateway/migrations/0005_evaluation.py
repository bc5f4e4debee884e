"""gateway: the evaluator's report on each job (GET /jobs/{id}/evaluation) and each page's LLM cost."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "gateway_0005"
down_revision = "gateway_0004"
SCHEMA = "gateway"


def upgrade() -> None:
    op.add_column("jobs", sa.Column("evaluation", JSONB), schema=SCHEMA)
    op.add_column("job_pages", sa.Column("llm_cost_usd", sa.Float, nullable=False, server_default="0"),
                  schema=SCHEMA)


def downgrade() -> None:
    op.drop_column("job_pages", "llm_cost_usd", schema=SCHEMA)
    op.drop_column("jobs", "evaluation", schema=SCHEMA)
