"""collab: the review loop — task lifecycle columns, annotations, few-shot examples, feedback suggestions."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "collab_0002"
down_revision = "collab_0001"
SCHEMA = "collab"


def upgrade() -> None:
    for column in (
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
    ):
        op.add_column("human_tasks", column, schema=SCHEMA)
    op.execute(f"UPDATE {SCHEMA}.human_tasks SET status = 'CREATED' WHERE status = 'PENDING'")
    op.create_index("ix_tasks_queue", "human_tasks", ["merchant_id", "status", "priority", "created_at"],
                    schema=SCHEMA)
    op.create_table(
        "annotations",
        sa.Column("annotation_id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("task_id", sa.Text),
        sa.Column("job_id", sa.Text, nullable=False),
        sa.Column("merchant_id", sa.Text, nullable=False),
        sa.Column("page", sa.Integer, nullable=False),
        sa.Column("annotator", sa.Text, nullable=False),
        sa.Column("type", sa.Text, nullable=False),
        sa.Column("payload", JSONB, nullable=False),
        sa.Column("annotated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        schema=SCHEMA,
    )
    op.create_index("ix_annotations_type", "annotations", ["type", "annotated_at"], schema=SCHEMA)
    op.create_table(
        "annotation_examples",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("task_id", sa.Text, nullable=False, unique=True),
        sa.Column("task_type", sa.Text, nullable=False),
        sa.Column("merchant_id", sa.Text, nullable=False),
        sa.Column("input_context", sa.Text, nullable=False),
        sa.Column("output_json", JSONB, nullable=False),
        sa.Column("quality_score", sa.Float, nullable=False),
        sa.Column("is_confirmed", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        schema=SCHEMA,
    )
    op.create_table(
        "feedback_suggestions",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("merchant_id", sa.Text, nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("payload", JSONB, nullable=False),
        sa.Column("status", sa.Text, nullable=False, server_default="SUGGESTED"),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.UniqueConstraint("kind", "merchant_id", "day"),
        schema=SCHEMA,
    )
    op.create_table(
        "documents",
        sa.Column("job_id", sa.Text, primary_key=True),
        sa.Column("global_attributes", JSONB, nullable=False),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.drop_table("documents", schema=SCHEMA)
    op.drop_table("feedback_suggestions", schema=SCHEMA)
    op.drop_table("annotation_examples", schema=SCHEMA)
    op.drop_table("annotations", schema=SCHEMA)
    op.drop_index("ix_tasks_queue", "human_tasks", schema=SCHEMA)
    for name in ("sla_level", "difficulty", "context", "assigned_to", "locked_by", "locked_at", "lock_expires_at",
                 "completed_at", "rework_count", "result", "skip_reason"):
        op.drop_column("human_tasks", name, schema=SCHEMA)
