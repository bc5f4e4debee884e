"""output: what each delivered SKU said (a hash of its values and images), so that a newer revision of
its page delivers again only the SKUs whose content changed."""

import sqlalchemy as sa
from alembic import op

revision = "output_0005"
down_revision = "output_0004"
SCHEMA = "output"


def upgrade() -> None:
    op.add_column("deliveries", sa.Column("content_key", sa.Text), schema=SCHEMA)


def downgrade() -> None:
    op.drop_column("deliveries", "content_key", schema=SCHEMA)
