"""collab: a task follows the machine's re-reads of its page (issue 42) — the page's layout signature
(tasks of one layout form the cluster one correction teaches), the newest reading the task has heard
of (a review is numbered above it), and the machine reading that closed it when no person was needed
any more. A page may now have one task per reading, so (job, page, task type) is no longer unique:
the task id (job/page/type/generation/reading) is."""

import sqlalchemy as sa
from alembic import op

revision = "collab_0004"
down_revision = "collab_0003"
SCHEMA = "collab"


def upgrade() -> None:
    op.add_column("human_tasks", sa.Column("layout", sa.Text), schema=SCHEMA)
    op.add_column("human_tasks", sa.Column("reading", sa.Integer, nullable=False, server_default="0"), schema=SCHEMA)
    op.add_column("human_tasks", sa.Column("superseded_by", sa.Integer), schema=SCHEMA)
    op.execute(f"UPDATE {SCHEMA}.human_tasks SET layout = context->>'layout', "
               f"reading = COALESCE((context->>'reading')::int, 0) WHERE context IS NOT NULL")
    op.drop_constraint("human_tasks_job_id_page_task_type_key", "human_tasks", schema=SCHEMA)
    op.create_index("ix_tasks_page", "human_tasks", ["job_id", "page"], schema=SCHEMA)
    op.create_index("ix_tasks_layout", "human_tasks", ["job_id", "layout"], schema=SCHEMA)


def downgrade() -> None:
    op.drop_index("ix_tasks_layout", "human_tasks", schema=SCHEMA)
    op.drop_index("ix_tasks_page", "human_tasks", schema=SCHEMA)
    op.create_unique_constraint("human_tasks_job_id_page_task_type_key", "human_tasks",
                                ["job_id", "page", "task_type"], schema=SCHEMA)
    for name in ("superseded_by", "reading", "layout"):
        op.drop_column("human_tasks", name, schema=SCHEMA)
