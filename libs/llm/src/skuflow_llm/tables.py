"""The ``llm`` schema: state every replica of every service using the adapter shares (seed-002 §10)."""

import sqlalchemy as sa

SCHEMA = "llm"
metadata = sa.MetaData(schema=SCHEMA)

circuit_breakers = sa.Table(
    "circuit_breakers", metadata,
    sa.Column("model", sa.Text, primary_key=True),
    sa.Column("state", sa.SmallInteger, nullable=False, server_default="0"),
    sa.Column("failure_count", sa.Integer, nullable=False, server_default="0"),
    sa.Column("open_since", sa.Float, nullable=False, server_default="0"),
    sa.Column("half_open_calls", sa.Integer, nullable=False, server_default="0"),
    sa.Column("half_open_success", sa.Integer, nullable=False, server_default="0"),
    sa.Column("half_open_since", sa.Float, nullable=False, server_default="0"),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
)

rate_windows = sa.Table(
    "rate_windows", metadata,
    sa.Column("model", sa.Text, primary_key=True),
    sa.Column("minute", sa.BigInteger, primary_key=True),
    sa.Column("requests", sa.Integer, nullable=False),
    sa.Column("tokens", sa.BigInteger, nullable=False),
)

budget_spend = sa.Table(
    "budget_spend", metadata,
    sa.Column("day", sa.Date, primary_key=True),
    sa.Column("scope", sa.Text, primary_key=True),
    sa.Column("spent_micro", sa.BigInteger, nullable=False),
)
