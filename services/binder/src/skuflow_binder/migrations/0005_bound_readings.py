"""binder: the reading (generation, reading) each page was last bound from (issue 42's re-reads)."""

import sqlalchemy as sa
from alembic import op

revision = "binder_0005"
down_revision = "binder_0004"
SCHEMA = "binder"


def upgrade() -> None:
    op.create_table(
        "bound_readings",
        sa.Column("job_id", sa.Text, primary_key=True),
        sa.Column("page", sa.Integer, primary_key=True),
        sa.Column("generation", sa.Integer, nullable=False),
        sa.Column("reading", sa.Integer, nullable=False),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.drop_table("bound_readings", schema=SCHEMA)
