"""gateway: each page's downstream import state, as the output service reports it (page.imported)."""

import sqlalchemy as sa
from alembic import op

revision = "gateway_0009"
down_revision = "gateway_0008"
SCHEMA = "gateway"


def upgrade() -> None:
    op.add_column("job_pages", sa.Column("import_status", sa.Text), schema=SCHEMA)


def downgrade() -> None:
    op.drop_column("job_pages", "import_status", schema=SCHEMA)
