"""The binder's schema: one binding decision per valid SKU, and the job's logos seen so far."""

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB

from skuflow_platform.profiles import profiles_table
from skuflow_platform.tables import platform_tables

metadata = sa.MetaData(schema="binder")
platform = platform_tables(metadata)
profiles = profiles_table(metadata)

bindings = sa.Table(
    "bindings", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("sku_id", sa.Text, primary_key=True),
    sa.Column("page", sa.Integer, nullable=False),
    sa.Column("image_id", sa.Text),
    sa.Column("confidence", sa.Float, nullable=False),
    sa.Column("is_ambiguous", sa.Boolean, nullable=False),
    sa.Column("method", sa.Text, nullable=False),
    sa.Column("candidates", JSONB, nullable=False),
)

seen_images = sa.Table(
    "seen_images", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("content_hash", sa.Text, primary_key=True),
    sa.Column("perceptual_hash", sa.Text),
)
