"""The collab schema: human tasks (one per page, task type and machine reading), their reverts, annotations,
few-shot examples."""

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB

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
    sa.Column("sla_level", sa.Text, nullable=False, server_default="NORMAL"),
    sa.Column("difficulty", sa.Float, nullable=False, server_default="0.5"),
    sa.Column("context", JSONB),
    sa.Column("assigned_to", sa.Text),
    sa.Column("locked_by", sa.Text),
    sa.Column("locked_at", sa.DateTime(timezone=True)),
    sa.Column("lock_expires_at", sa.DateTime(timezone=True)),
    sa.Column("completed_at", sa.DateTime(timezone=True)),
    sa.Column("rework_count", sa.Integer, nullable=False, server_default="0"),
    sa.Column("result", JSONB),
    sa.Column("skip_reason", sa.Text),
    sa.Column("reviewed", JSONB),  # the page as the last completion left it: a rework starts from it
    sa.Column("released_by", sa.Text),  # who last passed the task on: /tasks/next offers them others first
    sa.Column("released_at", sa.DateTime(timezone=True)),
    # issue 42: the page's layout signature (the job's open tasks of one layout are taught by one correction),
    # the newest machine reading of the page the task has heard of (a review is numbered above it), and the
    # revision of the machine reading that closed the task (a re-read, a reprocess: nothing was published)
    sa.Column("layout", sa.Text),
    sa.Column("reading", sa.Integer, nullable=False, server_default="0"),
    sa.Column("superseded_by", sa.Integer),
)

task_reverts = sa.Table(  # each revert, with the correction it undid, shown to whoever redoes the task
    "task_reverts", metadata,
    sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
    sa.Column("task_id", sa.Text, nullable=False),
    sa.Column("rework", sa.Integer, nullable=False),
    sa.Column("annotator", sa.Text),
    sa.Column("reverted_by", sa.Text, nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("patch", JSONB),
    sa.Column("reverted_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
)

annotations = sa.Table(
    "annotations", metadata,
    sa.Column("annotation_id", sa.BigInteger, sa.Identity(), primary_key=True),
    sa.Column("task_id", sa.Text),
    sa.Column("job_id", sa.Text, nullable=False),
    sa.Column("merchant_id", sa.Text, nullable=False),
    sa.Column("page", sa.Integer, nullable=False),
    sa.Column("annotator", sa.Text, nullable=False),
    sa.Column("type", sa.Text, nullable=False),
    sa.Column("payload", JSONB, nullable=False),
    sa.Column("annotated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
)

annotation_examples = sa.Table(
    "annotation_examples", metadata,
    sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
    sa.Column("task_id", sa.Text, nullable=False, unique=True),
    sa.Column("task_type", sa.Text, nullable=False),
    sa.Column("merchant_id", sa.Text, nullable=False),
    sa.Column("input_context", sa.Text, nullable=False),
    sa.Column("output_json", JSONB, nullable=False),
    sa.Column("quality_score", sa.Float, nullable=False),
    sa.Column("is_confirmed", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
)

sa.Index("ix_tasks_queue", human_tasks.c.merchant_id, human_tasks.c.status, human_tasks.c.priority,
         human_tasks.c.created_at)
sa.Index("ix_tasks_page", human_tasks.c.job_id, human_tasks.c.page)
sa.Index("ix_tasks_layout", human_tasks.c.job_id, human_tasks.c.layout)
sa.Index("ix_task_reverts_task", task_reverts.c.task_id)

people = sa.Table(  # the names of the people who worked on tasks, as their logins named them
    "people", metadata,
    sa.Column("merchant_id", sa.Text, primary_key=True),
    sa.Column("user_id", sa.Text, primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("last_seen_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
)
sa.Index("ix_annotations_type", annotations.c.type, annotations.c.annotated_at)

feedback_suggestions = sa.Table(
    "feedback_suggestions", metadata,
    sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
    sa.Column("kind", sa.Text, nullable=False),  # calibration | attribute_promotion
    sa.Column("merchant_id", sa.Text, nullable=False),
    sa.Column("day", sa.Date, nullable=False),
    sa.Column("payload", JSONB, nullable=False),
    sa.Column("status", sa.Text, nullable=False, server_default="SUGGESTED"),  # a person accepts or rejects
    sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    sa.UniqueConstraint("kind", "merchant_id", "day"),
)

documents = sa.Table(  # what the first page says of the whole document (BR-19), for every task of the job
    "documents", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("global_attributes", JSONB, nullable=False),
)
