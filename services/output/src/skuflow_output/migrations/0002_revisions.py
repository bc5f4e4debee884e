"""output: page results and deliveries carry their revision (human reviews add revisions)."""

import sqlalchemy as sa
from alembic import op

revision = "output_0002"
down_revision = "output_0001"
SCHEMA = "output"


def upgrade() -> None:
    op.add_column("page_results", sa.Column("revision", sa.Integer, nullable=False, server_default="1"),
                  schema=SCHEMA)
    op.add_column("deliveries", sa.Column("revision", sa.Integer, nullable=False, server_default="1"), schema=SCHEMA)
    op.add_column("deliveries", sa.Column("status", sa.Text, nullable=False, server_default="DELIVERED"),
                  schema=SCHEMA)
    op.drop_constraint("deliveries_pkey", "deliveries", schema=SCHEMA)
    op.create_primary_key("deliveries_pkey", "deliveries", ["job_id", "sku_id", "revision"], schema=SCHEMA)


def downgrade() -> None:
    op.drop_constraint("deliveries_pkey", "deliveries", schema=SCHEMA)
    op.execute(f"DELETE FROM {SCHEMA}.deliveries WHERE revision > 1")
    op.create_primary_key("deliveries_pkey", "deliveries", ["job_id", "sku_id"], schema=SCHEMA)
    op.drop_column("deliveries", "status", schema=SCHEMA)
    op.drop_column("deliveries", "revision", schema=SCHEMA)
    op.drop_column("page_results", "revision", schema=SCHEMA)
