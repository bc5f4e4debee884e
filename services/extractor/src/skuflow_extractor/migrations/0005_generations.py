"""extractor: which full reprocess of its job a page's table reading belongs to."""

import sqlalchemy as sa
from alembic import op

revision = "extractor_0005"
down_revision = "extractor_0004"
SCHEMA = "extractor"


def upgrade() -> None:
    op.add_column("page_tables", sa.Column("generation", sa.Integer, nullable=False, server_default="0"),
                  schema=SCHEMA)


def downgrade() -> None:
    op.drop_column("page_tables", "generation", schema=SCHEMA)
