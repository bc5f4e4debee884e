"""extractor: platform tables and skus."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

from skuflow_platform.tables import create_platform_tables

revision = "extractor_0001"
down_revision = None
SCHEMA = "extractor"


def upgrade() -> None:
    create_platform_tables(op, SCHEMA)
    op.create_table(
        "skus",
        sa.Column("job_id", sa.Text, primary_key=True),
        sa.Column("sku_id", sa.Text, primary_key=True),
        sa.Column("page", sa.Integer, nullable=False),
        sa.Column("validity", sa.Text, nullable=False),
        sa.Column("extraction_method", sa.Text, nullable=False),
        sa.Column("record", JSONB, nullable=False),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.execute(f'DROP SCHEMA "{SCHEMA}" CASCADE')
