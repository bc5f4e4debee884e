"""output: platform tables, jobs, page_results and deliveries."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

from skuflow_platform.tables import create_platform_tables

revision = "output_0001"
down_revision = None
SCHEMA = "output"


def upgrade() -> None:
    create_platform_tables(op, SCHEMA)
    op.create_table(
        "jobs",
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
        schema=SCHEMA,
    )
    op.create_table(
        "page_results",
        sa.Column("job_id", sa.Text, primary_key=True),
        sa.Column("page", sa.Integer, primary_key=True),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("result", JSONB, nullable=False),
        sa.Column("error", sa.Text),
        schema=SCHEMA,
    )
    op.create_table(
        "deliveries",
        sa.Column("job_id", sa.Text, primary_key=True),
        sa.Column("sku_id", sa.Text, primary_key=True),
        sa.Column("page", sa.Integer, nullable=False),
        sa.Column("delivered_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.execute(f'DROP SCHEMA "{SCHEMA}" CASCADE')
