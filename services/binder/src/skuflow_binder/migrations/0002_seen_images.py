"""binder: the job-wide memory of logos and decorations (dedup by role, BR-28)."""

import sqlalchemy as sa
from alembic import op

revision = "binder_0002"
down_revision = "binder_0001"
SCHEMA = "binder"


def upgrade() -> None:
    op.create_table(
        "seen_images",
        sa.Column("job_id", sa.Text, primary_key=True),
        sa.Column("content_hash", sa.Text, primary_key=True),
        sa.Column("perceptual_hash", sa.Text),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.drop_table("seen_images", schema=SCHEMA)
