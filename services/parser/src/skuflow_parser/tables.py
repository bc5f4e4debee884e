"""The parser's schema: one row per parsed page, and the jobs cancelled before their pages were parsed."""

import sqlalchemy as sa

from skuflow_platform.tables import platform_tables

metadata = sa.MetaData(schema="parser")
platform = platform_tables(metadata)

parsed_pages = sa.Table(
    "parsed_pages", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("page", sa.Integer, primary_key=True),
    sa.Column("ir_uri", sa.Text, nullable=False),
    sa.Column("ir_hash", sa.Text, nullable=False),
    sa.Column("parser_backend", sa.Text, nullable=False),
    sa.Column("text_coverage", sa.Float, nullable=False),
    sa.Column("image_count", sa.Integer, nullable=False),
    sa.Column("parsed_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
)

cancelled_jobs = sa.Table(
    "cancelled_jobs", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("cancelled_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
)
