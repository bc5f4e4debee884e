"""collab: the review desk keeps what people did — the page a completion left (a rework's base), who
passed a task on (release), every revert with the correction it undid, and the names of the people
who did the work."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "collab_0003"
down_revision = "collab_0002"
SCHEMA = "collab"


def upgrade() -> None:
    op.add_column("human_tasks", sa.Column("reviewed", JSONB), schema=SCHEMA)
    op.add_column("human_tasks", sa.Column("released_by", sa.Text), schema=SCHEMA)
    op.add_column("human_tasks", sa.Column("released_at", sa.DateTime(timezone=True)), schema=SCHEMA)
    op.create_table(
        "task_reverts",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("task_id", sa.Text, nullable=False),
        sa.Column("rework", sa.Integer, nullable=False),
        sa.Column("annotator", sa.Text),
        sa.Column("reverted_by", sa.Text, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("patch", JSONB),
        sa.Column("reverted_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        schema=SCHEMA,
    )
    op.create_index("ix_task_reverts_task", "task_reverts", ["task_id"], schema=SCHEMA)
    op.create_table(
        "people",
        sa.Column("merchant_id", sa.Text, primary_key=True),
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.drop_table("people", schema=SCHEMA)
    op.drop_table("task_reverts", schema=SCHEMA)
    for name in ("released_at", "released_by", "reviewed"):
        op.drop_column("human_tasks", name, schema=SCHEMA)
