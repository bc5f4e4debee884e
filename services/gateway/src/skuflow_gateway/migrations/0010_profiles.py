"""gateway: threshold profiles and every version of each (seed-001b §1.2.13)."""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "gateway_0010"
down_revision = "gateway_0009"
SCHEMA = "gateway"


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("merchant_id", sa.Text, primary_key=True),
        sa.Column("profile_id", sa.Text, primary_key=True),
        sa.Column("category", sa.Text, nullable=False),
        sa.Column("active_version", sa.Text, nullable=False),
        sa.Column("is_default", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        schema=SCHEMA,
    )
    op.create_index("profiles_one_default", "profiles", ["merchant_id"], unique=True, schema=SCHEMA,
                    postgresql_where=sa.text("is_default"))
    op.create_table(
        "profile_versions",
        sa.Column("merchant_id", sa.Text, primary_key=True),
        sa.Column("profile_id", sa.Text, primary_key=True),
        sa.Column("version", sa.Text, primary_key=True),
        sa.Column("config_version", sa.Text, nullable=False, unique=True),
        sa.Column("previous_version", sa.Text),
        sa.Column("settings", JSONB, nullable=False),
        sa.Column("created_by", sa.Text, nullable=False),
        sa.Column("change_reason", sa.Text),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.drop_table("profile_versions", schema=SCHEMA)
    op.drop_table("profiles", schema=SCHEMA)
