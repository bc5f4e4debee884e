"""extractor: what a lesson was learnt from, so that a new reader learns it again (issue 42, merchant memory)."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "extractor_0007"
down_revision = "extractor_0006"
SCHEMA = "extractor"


def upgrade() -> None:
    op.add_column("lessons", sa.Column("page_ir", sa.LargeBinary), schema=SCHEMA)
    op.add_column("lessons", sa.Column("reviewed_reading", JSONB), schema=SCHEMA)
    op.add_column("lessons", sa.Column("products", JSONB), schema=SCHEMA)
    op.add_column("lessons", sa.Column("reader_version", sa.Text), schema=SCHEMA)


def downgrade() -> None:
    op.drop_column("lessons", "reader_version", schema=SCHEMA)
    op.drop_column("lessons", "products", schema=SCHEMA)
    op.drop_column("lessons", "reviewed_reading", schema=SCHEMA)
    op.drop_column("lessons", "page_ir", schema=SCHEMA)
