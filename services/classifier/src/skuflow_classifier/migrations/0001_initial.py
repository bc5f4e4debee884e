"""classifier: platform tables and page_classifications."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

from skuflow_platform.tables import create_platform_tables

revision = "classifier_0001"
down_revision = None
SCHEMA = "classifier"


def upgrade() -> None:
    create_platform_tables(op, SCHEMA)
    op.create_table(
        "page_classifications",
        sa.Column("job_id", sa.Text, primary_key=True),
        sa.Column("page", sa.Integer, primary_key=True),
        sa.Column("page_type", sa.Text, nullable=False),
        sa.Column("confidence", sa.Float, nullable=False),
        sa.Column("layout", sa.Text),
        sa.Column("needs_review", sa.Boolean, nullable=False),
        sa.Column("detail", JSONB, nullable=False),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.execute(f'DROP SCHEMA "{SCHEMA}" CASCADE')
