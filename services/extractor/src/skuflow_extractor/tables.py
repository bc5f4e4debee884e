"""The extractor's schema: the SKUs found on each page."""

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB

from skuflow_platform.tables import platform_tables

metadata = sa.MetaData(schema="extractor")
platform = platform_tables(metadata)

skus = sa.Table(
    "skus", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("sku_id", sa.Text, primary_key=True),
    sa.Column("page", sa.Integer, nullable=False),
    sa.Column("validity", sa.Text, nullable=False),
    sa.Column("extraction_method", sa.Text, nullable=False),
    sa.Column("record", JSONB, nullable=False),
)
