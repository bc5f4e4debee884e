"""evaluation: eval_reports (seed-001b §1.2.9)."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "evaluation_0001"
down_revision = None
SCHEMA = "evaluation"


def upgrade() -> None:
    op.create_table(
        "eval_reports",
        sa.Column("id", sa.Integer, sa.Identity(), primary_key=True),
        sa.Column("golden_set_id", sa.Text, nullable=False),
        sa.Column("config_version", sa.Text, nullable=False),
        sa.Column("via", sa.Text, nullable=False),
        sa.Column("sku_precision", sa.Float),
        sa.Column("sku_recall", sa.Float),
        sa.Column("sku_f1", sa.Float),
        sa.Column("binding_accuracy", sa.Float),
        sa.Column("human_intervention_rate", sa.Float),
        sa.Column("report_data", JSONB, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.execute(f'DROP SCHEMA "{SCHEMA}" CASCADE')
