"""The extractor's schema: the SKUs found on each page, each page's table header (for the next
page's continuation), the pages waiting for their previous page, each page's last reading (to read
it again) and the lessons of the pages people corrected (``lessons.py``)."""

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import ARRAY, JSONB

from skuflow_platform.profiles import profiles_table
from skuflow_platform.tables import platform_tables

metadata = sa.MetaData(schema="extractor")
platform = platform_tables(metadata)
profiles = profiles_table(metadata)

skus = sa.Table(
    "skus", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("sku_id", sa.Text, primary_key=True),
    sa.Column("page", sa.Integer, nullable=False),
    sa.Column("validity", sa.Text, nullable=False),
    sa.Column("extraction_method", sa.Text, nullable=False),
    sa.Column("record", JSONB, nullable=False),
)

page_tables = sa.Table(
    "page_tables", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("page", sa.Integer, primary_key=True),
    sa.Column("header", JSONB),
    sa.Column("merged_from", sa.Integer),
    # written when the page was dead-lettered, so the next page need not wait; a replay replaces it
    sa.Column("placeholder", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("generation", sa.Integer, nullable=False, server_default="0"),  # the job's full reprocess
)

deferred_pages = sa.Table(
    "deferred_pages", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("page", sa.Integer, primary_key=True),
    sa.Column("event", JSONB, nullable=False),
    sa.Column("deferred_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
)

page_readings = sa.Table(
    "page_readings", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("page", sa.Integer, primary_key=True),
    sa.Column("merchant_id", sa.Text, nullable=False),
    sa.Column("generation", sa.Integer, nullable=False),
    sa.Column("event", JSONB, nullable=False),  # the page.extracted last emitted: read again, or sent again, from it
    sa.Column("layout", sa.Text),  # the job's canonical layout of the page (None: no columns)
    sa.Column("reading", sa.Integer, nullable=False),
    sa.Column("reading_confidence", sa.Float),
    sa.Column("reviewed", sa.Boolean, nullable=False, server_default=sa.false()),  # a person's: never read again
    sa.Column("lesson_ids", ARRAY(sa.BigInteger)),  # the lessons its reading learned from (a revert reads it again)
    sa.Column("first_read_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    sa.Index("idx_page_readings_layout", "job_id", "generation", "layout"),
)

lessons = sa.Table(
    "lessons", metadata,
    sa.Column("lesson_id", sa.BigInteger, sa.Identity(), primary_key=True),
    sa.Column("merchant_id", sa.Text, nullable=False),
    sa.Column("job_id", sa.Text, nullable=False),
    sa.Column("page", sa.Integer, nullable=False),
    sa.Column("task_id", sa.Text, nullable=False),
    sa.Column("revision", sa.Integer, nullable=False),  # the review's: a redo after a revert is a lesson of its own
    sa.Column("layout", sa.Text, nullable=False),
    sa.Column("lesson", sa.LargeBinary, nullable=False),  # reading.adaptation.Lesson.to_bytes()
    sa.Column("status", sa.Text, nullable=False),  # active | doubted (readings flagged; no later page) | reverted
    # what the lesson is learnt from, to learn it again for another reader (none in lessons kept before 0007):
    sa.Column("page_ir", sa.LargeBinary),  # the page (its IR, gzipped JSON): the job's files are purged in time
    sa.Column("reviewed_reading", JSONB),  # the page.extracted the person reviewed
    sa.Column("products", JSONB),  # the attributes of the SKUs they left
    sa.Column("reader_version", sa.Text),  # the reader whose features measured ``lesson``
    sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    sa.UniqueConstraint("task_id", "revision", name="uq_lessons_review"),
    sa.CheckConstraint("status IN ('active', 'doubted', 'reverted')", name="chk_lesson_status"),
    sa.Index("idx_lessons_merchant", "merchant_id", "status"),
)
