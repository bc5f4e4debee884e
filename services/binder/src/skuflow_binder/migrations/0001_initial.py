"""binder: platform tables and bindings."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

from skuflow_platform.tables import create_platform_tables

revision = "binder_0001"
down_revision = None
SCHEMA = "binder"


def upgrade() -> None:
    create_platform_tables(op, SCHEMA)
    op.create_table(
        "bindings",
        sa.Column("job_id", sa.Text, primary_key=True),
        sa.Column("sku_id", sa.Text, primary_key=True),
        sa.Column("page", sa.Integer, nullable=False),
        sa.Column("image_id", sa.Text),
        sa.Column("confidence", sa.Float, nullable=False),
        sa.Column("is_ambiguous", sa.Boolean, nullable=False),
        sa.Column("method", sa.Text, nullable=False),
        sa.Column("candidates", JSONB, nullable=False),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.execute(f'DROP SCHEMA "{SCHEMA}" CASCADE')
