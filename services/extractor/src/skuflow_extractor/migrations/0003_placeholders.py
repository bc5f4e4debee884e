"""extractor: a page_tables row written for a dead-lettered page is a placeholder a replay replaces."""

import sqlalchemy as sa
from alembic import op

revision = "extractor_0003"
down_revision = "extractor_0002"
SCHEMA = "extractor"


def upgrade() -> None:
    op.add_column("page_tables", sa.Column("placeholder", sa.Boolean, nullable=False,
                                           server_default=sa.false()), schema=SCHEMA)


def downgrade() -> None:
    op.drop_column("page_tables", "placeholder", schema=SCHEMA)
