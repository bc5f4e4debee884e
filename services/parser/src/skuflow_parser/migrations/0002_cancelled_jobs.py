"""parser: jobs cancelled by their uploader, whose pages are not parsed any more."""

import sqlalchemy as sa
from alembic import op

revision = "parser_0002"
down_revision = "parser_0001"
SCHEMA = "parser"


def upgrade() -> None:
    op.create_table(
        "cancelled_jobs",
        sa.Column("job_id", sa.Text, primary_key=True),
        sa.Column("cancelled_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.drop_table("cancelled_jobs", schema=SCHEMA)
