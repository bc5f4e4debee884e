"""gateway: refresh tokens (one family per login) and invitations of new users."""

import sqlalchemy as sa
from alembic import op

revision = "gateway_0011"
down_revision = "gateway_0010"
SCHEMA = "gateway"


def upgrade() -> None:
    op.add_column("users", sa.Column("invite_hash", sa.Text, unique=True), schema=SCHEMA)
    op.add_column("users", sa.Column("invite_expires_at", sa.DateTime(timezone=True)), schema=SCHEMA)
    op.add_column("users", sa.Column("created_by", sa.Text), schema=SCHEMA)
    op.create_table(
        "refresh_tokens",
        sa.Column("token_hash", sa.Text, primary_key=True),
        sa.Column("user_id", sa.Text, nullable=False, index=True),
        sa.Column("family_id", sa.Text, nullable=False, index=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True)),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.drop_table("refresh_tokens", schema=SCHEMA)
    for column in ("created_by", "invite_expires_at", "invite_hash"):
        op.drop_column("users", column, schema=SCHEMA)
