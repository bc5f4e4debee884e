"""collab: platform tables and human_tasks."""

import sqlalchemy as sa
from alembic import op

from skuflow_platform.tables import create_platform_tables

revision = "collab_0001"
down_revision = None
SCHEMA = "collab"


def upgrade() -> None:
    create_platform_tables(op, SCHEMA)
    op.create_table(
        "human_tasks",
        sa.Column("task_id", sa.Text, primary_key=True),
        sa.Column("job_id", sa.Text, nullable=False),
        sa.Column("merchant_id", sa.Text, nullable=False),
        sa.Column("page", sa.Integer, nullable=False),
        sa.Column("task_type", sa.Text, nullable=False),
        sa.Column("priority", sa.Integer, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.UniqueConstraint("job_id", "page", "task_type"),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.execute(f'DROP SCHEMA "{SCHEMA}" CASCADE')
