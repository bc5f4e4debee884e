"""llm: shared circuit breakers, per-minute rate windows and daily budget spend."""

import sqlalchemy as sa
from alembic import op

revision = "llm_0001"
down_revision = None
SCHEMA = "llm"


def upgrade() -> None:
    op.create_table(
        "circuit_breakers",
        sa.Column("model", sa.Text, primary_key=True),
        sa.Column("state", sa.SmallInteger, nullable=False, server_default="0"),
        sa.Column("failure_count", sa.Integer, nullable=False, server_default="0"),
        sa.Column("open_since", sa.Float, nullable=False, server_default="0"),
        sa.Column("half_open_calls", sa.Integer, nullable=False, server_default="0"),
        sa.Column("half_open_success", sa.Integer, nullable=False, server_default="0"),
        sa.Column("half_open_since", sa.Float, nullable=False, server_default="0"),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        schema=SCHEMA,
    )
    op.create_table(
        "rate_windows",
        sa.Column("model", sa.Text, primary_key=True),
        sa.Column("minute", sa.BigInteger, primary_key=True),
        sa.Column("requests", sa.Integer, nullable=False),
        sa.Column("tokens", sa.BigInteger, nullable=False),
        schema=SCHEMA,
    )
    op.create_table(
        "budget_spend",
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("scope", sa.Text, primary_key=True),
        sa.Column("spent_micro", sa.BigInteger, nullable=False),
        schema=SCHEMA,
    )


def downgrade() -> None:
    op.execute(f'DROP SCHEMA "{SCHEMA}" CASCADE')
