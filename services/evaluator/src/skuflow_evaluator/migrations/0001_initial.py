"""evaluator: platform tables and evaluations."""

import sqlalchemy as sa
from alembic import op

from skuflow_platform.tables import create_platform_tables

revision = "evaluator_0001"
down_revision = None
SCHEMA = "evaluator"


def upgrade() -> None:
    create_platform_tables(op, SCHEMA)
    op.create_table(
        "evaluations",
        sa.Column("file_hash", sa.Text, primary_key=True),
        sa.Column("config_version", sa.Text, primary_key=True),
        sa.Column("route", sa.Text, nullable=False),
        sa.Column("c_doc", sa.Float),
        sa.Column("reason", sa.Text, nullable=False),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.execute(f'DROP SCHEMA "{SCHEMA}" CASCADE')
