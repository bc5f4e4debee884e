"""The collab schema: human tasks (one per page and task type)."""

import sqlalchemy as sa

from skuflow_platform.tables import platform_tables

metadata = sa.MetaData(schema="collab")
platform = platform_tables(metadata)

human_tasks = sa.Table(
    "human_tasks", metadata,
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
)
