"""parser: platform tables and parsed_pages."""

import sqlalchemy as sa
from alembic import op

from skuflow_platform.tables import create_platform_tables

revision = "parser_0001"
down_revision = None
SCHEMA = "parser"


def upgrade() -> None:
    create_platform_tables(op, SCHEMA)
    op.create_table(
        "parsed_pages",
        sa.Column("job_id", sa.Text, primary_key=True),
        sa.Column("page", sa.Integer, primary_key=True),
        sa.Column("ir_uri", sa.Text, nullable=False),
        sa.Column("ir_hash", sa.Text, nullable=False),
        sa.Column("parser_backend", sa.Text, nullable=False),
        sa.Column("text_coverage", sa.Float, nullable=False),
        sa.Column("image_count", sa.Integer, nullable=False),
        sa.Column("parsed_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.execute(f'DROP SCHEMA "{SCHEMA}" CASCADE')
