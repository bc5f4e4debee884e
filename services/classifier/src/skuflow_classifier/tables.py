"""The classifier's schema: one classification per page (with its reasons, NFR-13)."""

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB

from skuflow_platform.profiles import profiles_table
from skuflow_platform.tables import platform_tables

metadata = sa.MetaData(schema="classifier")
platform = platform_tables(metadata)
profiles = profiles_table(metadata)

page_classifications = sa.Table(
    "page_classifications", metadata,
    sa.Column("job_id", sa.Text, primary_key=True),
    sa.Column("page", sa.Integer, primary_key=True),
    sa.Column("page_type", sa.Text, nullable=False),
    sa.Column("confidence", sa.Float, nullable=False),
    sa.Column("layout", sa.Text),
    sa.Column("needs_review", sa.Boolean, nullable=False),
    sa.Column("detail", JSONB, nullable=False),
)
