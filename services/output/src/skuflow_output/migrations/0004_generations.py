"""output: which full reprocess of its job a page result and the job belong to (skuflow_contracts.revisions)."""

import sqlalchemy as sa
from alembic import op

revision = "output_0004"
down_revision = "output_0003"
SCHEMA = "output"


def upgrade() -> None:
    for table in ("jobs", "page_results"):
        op.add_column(table, sa.Column("generation", sa.Integer, nullable=False, server_default="0"), schema=SCHEMA)


def downgrade() -> None:
    for table in ("jobs", "page_results"):
        op.drop_column(table, "generation", schema=SCHEMA)
