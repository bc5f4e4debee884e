"""The output schema: job completion, page results, delivered SKUs and their HTTP imports, by revision, and
the threshold profiles (read model)."""

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB

from skuflow_platform.profiles import profiles_table
from skuflow_platform.tables import platform_tables

metadata = sa.MetaData(schema="output")
platform = platform_tables(metadata)
profiles = profiles_table(metadata)

jobs = sa.Table(
    "jobs", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("merchant_id", sa.Text, nullable=False),
    sa.Column("file_hash", sa.Text),
    sa.Column("route", sa.Text),
    sa.Column("config_version", sa.Text),
    sa.Column("total_pages", sa.Integer),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("result_uri", sa.Text),
    sa.Column("sku_count", sa.Integer),
    sa.Column("completed_at", sa.DateTime(timezone=True)),
    sa.Column("generation", sa.Integer, nullable=False, server_default="0"),  # its latest full reprocess
)

page_results = sa.Table(
    "page_results", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("page", sa.Integer, primary_key=True),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("result", JSONB, nullable=False),
    sa.Column("error", sa.Text),
    sa.Column("revision", sa.Integer, nullable=False, server_default="1"),
    sa.Column("generation", sa.Integer, nullable=False, server_default="0"),
)

deliveries = sa.Table(
    "deliveries", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("sku_id", sa.Text, primary_key=True),
    sa.Column("revision", sa.Integer, primary_key=True, server_default="1"),
    sa.Column("page", sa.Integer, nullable=False),
    sa.Column("status", sa.Text, nullable=False, server_default="DELIVERED"),
    sa.Column("delivered_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    sa.Column("content_key", sa.Text),  # domain.skus.content_key: a newer revision re-delivers only on change
)

imports = sa.Table(
    "imports", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("page", sa.Integer, primary_key=True),
    sa.Column("revision", sa.Integer, primary_key=True),
    sa.Column("merchant_id", sa.Text, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("sku_count", sa.Integer, nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Column("next_attempt_at", sa.DateTime(timezone=True)),
    sa.Column("failing_since", sa.DateTime(timezone=True)),
    sa.Column("last_error", sa.Text),
    sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    sa.Index("imports_due", "next_attempt_at", postgresql_where=sa.text("status IN ('PENDING', 'IMPORT_FAILED')")),
    sa.Index("imports_status", "status"),
)
