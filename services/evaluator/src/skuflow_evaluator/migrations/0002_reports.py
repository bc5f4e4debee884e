"""evaluator: the evaluations table of seed-001b §1.2.2 (the whole report, its degrade reason, when)."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "evaluator_0002"
down_revision = "evaluator_0001"
SCHEMA = "evaluator"


def upgrade() -> None:
    op.execute(f'DELETE FROM "{SCHEMA}".evaluations')  # the walking skeleton's rows hold no report
    op.add_column("evaluations", sa.Column("degrade_reason", sa.Text), schema=SCHEMA)
    op.add_column("evaluations", sa.Column("report", JSONB, nullable=False), schema=SCHEMA)
    op.add_column("evaluations", sa.Column("model_used", sa.Text, nullable=False,
                                           server_default="deterministic"), schema=SCHEMA)
    op.add_column("evaluations", sa.Column("evaluated_at", sa.DateTime(timezone=True), nullable=False,
                                           server_default=sa.func.now()), schema=SCHEMA)


def downgrade() -> None:
    for column in ("evaluated_at", "model_used", "report", "degrade_reason"):
        op.drop_column("evaluations", column, schema=SCHEMA)
