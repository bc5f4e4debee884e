"""The binder's schema: one binding decision per valid SKU, the job's logos seen so far, each image
with its state (domain/images.py), and the reading each page was last bound from."""

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

images = sa.Table(
    "images", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("image_id", sa.Text, primary_key=True),
    sa.Column("page", sa.Integer, nullable=False),
    sa.Column("role", sa.Text, nullable=False),
    sa.Column("bbox", JSONB, nullable=False),
    sa.Column("short_edge", sa.Integer, nullable=False),
    sa.Column("quality_grade", sa.Text, nullable=False),
    sa.Column("search_eligible", sa.Boolean, nullable=False),
    sa.Column("is_fragmented", sa.Boolean, nullable=False),
    sa.Column("image_hash", sa.Text),
    sa.Column("is_duplicate", sa.Boolean, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    sa.CheckConstraint("search_eligible = false OR short_edge >= 640", name="chk_search_eligible"),
    sa.Index("idx_images_job", "job_id", "page"),
)

bound_readings = sa.Table(  # a page's later reading replaces its bindings; an older one arriving late binds nothing
    "bound_readings", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("page", sa.Integer, primary_key=True),
    sa.Column("generation", sa.Integer, nullable=False),
    sa.Column("reading", sa.Integer, nullable=False),
)
