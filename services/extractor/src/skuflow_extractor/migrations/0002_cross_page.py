"""extractor: table headers per page and pages deferred until their previous page is read."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "extractor_0002"
down_revision = "extractor_0001"
SCHEMA = "extractor"


def upgrade() -> None:
    op.create_table(
        "page_tables",
        sa.Column("job_id", sa.Text, primary_key=True),
        sa.Column("page", sa.Integer, primary_key=True),
        sa.Column("header", JSONB),
        sa.Column("merged_from", sa.Integer),
        schema=SCHEMA,
    )
    op.create_table(
        "deferred_pages",
        sa.Column("job_id", sa.Text, primary_key=True),
        sa.Column("page", sa.Integer, primary_key=True),
        sa.Column("event", JSONB, nullable=False),
        sa.Column("deferred_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.drop_table("deferred_pages", schema=SCHEMA)
    op.drop_table("page_tables", schema=SCHEMA)
