"""platform_test: only the platform tables, for the runtime's own tests."""

from alembic import op

from skuflow_platform.tables import create_platform_tables

revision = "platform_test_0001"
down_revision = None


def upgrade() -> None:
    create_platform_tables(op, "platform_test")


def downgrade() -> None:
    op.execute('DROP SCHEMA "platform_test" CASCADE')
