"""gateway: when a job was completed, and the failing stage's own words (job.failed's message).

A job completed before this migration is taken to have completed at its last change."""

import sqlalchemy as sa
from alembic import op

revision = "gateway_0015"
down_revision = "gateway_0014"
SCHEMA = "gateway"
FINAL = ("FULL_IMPORTED", "EVAL_FAILED", "REJECTED", "CANCELLED")
JUDGED = ("FULL_IMPORTED", "PARTIAL_FAILED", "PARTIAL_IMPORTED", "DEGRADED_HUMAN")


def upgrade() -> None:
    op.add_column("jobs", sa.Column("completed_at", sa.DateTime(timezone=True)), schema=SCHEMA)
    op.add_column("jobs", sa.Column("failure_detail", sa.Text), schema=SCHEMA)
    op.execute(f"UPDATE {SCHEMA}.jobs SET completed_at = updated_at WHERE status IN {FINAL} "
               f"OR (result_uri IS NOT NULL AND status IN {JUDGED})")


def downgrade() -> None:
    op.drop_column("jobs", "failure_detail", schema=SCHEMA)
    op.drop_column("jobs", "completed_at", schema=SCHEMA)
