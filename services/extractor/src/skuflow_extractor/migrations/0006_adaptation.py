"""extractor: each page's last reading (to read it again) and the lessons of corrected pages (issue 42)."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import ARRAY, JSONB

revision = "extractor_0006"
down_revision = "extractor_0005"
SCHEMA = "extractor"


def upgrade() -> None:
    op.create_table(
        "page_readings",
        sa.Column("job_id", sa.Text, primary_key=True),
        sa.Column("page", sa.Integer, primary_key=True),
        sa.Column("merchant_id", sa.Text, nullable=False),
        sa.Column("generation", sa.Integer, nullable=False),
        sa.Column("event", JSONB, nullable=False),
        sa.Column("layout", sa.Text),
        sa.Column("reading", sa.Integer, nullable=False),
        sa.Column("reading_confidence", sa.Float),
        sa.Column("reviewed", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("lesson_ids", ARRAY(sa.BigInteger)),
        sa.Column("first_read_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        schema=SCHEMA,
    )
    op.create_index("idx_page_readings_layout", "page_readings", ["job_id", "generation", "layout"], schema=SCHEMA)
    op.create_table(
        "lessons",
        sa.Column("lesson_id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("merchant_id", sa.Text, nullable=False),
        sa.Column("job_id", sa.Text, nullable=False),
        sa.Column("page", sa.Integer, nullable=False),
        sa.Column("task_id", sa.Text, nullable=False),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("layout", sa.Text, nullable=False),
        sa.Column("lesson", sa.LargeBinary, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.UniqueConstraint("task_id", "revision", name="uq_lessons_review"),
        sa.CheckConstraint("status IN ('active', 'doubted', 'reverted')", name="chk_lesson_status"),
        schema=SCHEMA,
    )
    op.create_index("idx_lessons_merchant", "lessons", ["merchant_id", "status"], schema=SCHEMA)


def downgrade() -> None:
    op.drop_table("lessons", schema=SCHEMA)
    op.drop_table("page_readings", schema=SCHEMA)
