"""gateway: when the output service confirmed that a cancelled job delivers nothing more."""

import sqlalchemy as sa
from alembic import op

revision = "gateway_0007"
down_revision = "gateway_0006"
SCHEMA = "gateway"


def upgrade() -> None:
    op.add_column("jobs", sa.Column("delivery_stopped_at", sa.DateTime(timezone=True)), schema=SCHEMA)


def downgrade() -> None:
    op.drop_column("jobs", "delivery_stopped_at", schema=SCHEMA)
