"""gateway: when each page last changed, so the watchdog can tell a stuck job from a slow one."""

import sqlalchemy as sa
from alembic import op

revision = "gateway_0003"
down_revision = "gateway_0002"
SCHEMA = "gateway"


def upgrade() -> None:
    op.add_column("job_pages", sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(),
                                         nullable=False), schema=SCHEMA)


def downgrade() -> None:
    op.drop_column("job_pages", "updated_at", schema=SCHEMA)
