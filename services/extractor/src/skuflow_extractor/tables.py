"""The extractor's schema: the SKUs found on each page, each page's table header (for the next
page's continuation) and the pages waiting for their previous page."""

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB

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
