"""gateway: how many full reprocesses a job has had (its pages' readings of earlier ones are stale)."""

import sqlalchemy as sa
from alembic import op

revision = "gateway_0014"
down_revision = "gateway_0013"
SCHEMA = "gateway"


def upgrade() -> None:
    op.add_column("jobs", sa.Column("generation", sa.Integer, nullable=False, server_default="0"), schema=SCHEMA)


def downgrade() -> None:
    op.drop_column("jobs", "generation", schema=SCHEMA)
