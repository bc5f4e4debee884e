"""binder: each image the binder saw, with its state (seed-001b §1.2.10; INV-03 as a CHECK)."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "binder_0004"
down_revision = "binder_0003"
SCHEMA = "binder"


def upgrade() -> None:
    op.create_table(
        "images",
        sa.Column("job_id", sa.Text, primary_key=True),
        sa.Column("image_id", sa.Text, primary_key=True),
        sa.Column("page", sa.Integer, nullable=False),
        sa.Column("role", sa.Text, nullable=False),
        sa.Column("bbox", JSONB, nullable=False),
        sa.Column("short_edge", sa.Integer, nullable=False),
        sa.Column("quality_grade", sa.Text, nullable=False),
        sa.Column("search_eligible", sa.Boolean, nullable=False),
        sa.Column("is_fragmented", sa.Boolean, nullable=False),
        sa.Column("image_hash", sa.Text),
        sa.Column("is_duplicate", sa.Boolean, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.CheckConstraint("search_eligible = false OR short_edge >= 640", name="chk_search_eligible"),
        schema=SCHEMA,
    )
    op.create_index("idx_images_job", "images", ["job_id", "page"], schema=SCHEMA)


def downgrade() -> None:
    op.drop_table("images", schema=SCHEMA)
