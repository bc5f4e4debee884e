"""The tables every service keeps in its own schema: inbox, outbox and the transition audit."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB, UUID

UNPUBLISHED_INDEX = "ix_outbox_unpublished"


@dataclass(frozen=True)
class PlatformTables:
    processed_events: sa.Table
    outbox: sa.Table
    state_transitions: sa.Table


def _columns() -> dict[str, list[sa.Column]]:
    return {
        "processed_events": [
            sa.Column("event_id", UUID(as_uuid=True), primary_key=True),
            sa.Column("topic", sa.Text, nullable=False),
            sa.Column("processed_at", sa.DateTime(timezone=True), nullable=False,
                      server_default=sa.func.now()),
        ],
        "outbox": [
            sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
            sa.Column("event_id", UUID(as_uuid=True), nullable=False, unique=True),
            sa.Column("topic", sa.Text, nullable=False),
            sa.Column("message_key", sa.Text, nullable=False),
            sa.Column("body", sa.LargeBinary, nullable=False),
            sa.Column("traceparent", sa.Text),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False,
                      server_default=sa.func.now()),
            sa.Column("published_at", sa.DateTime(timezone=True)),
        ],
        "state_transitions": [
            sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
            sa.Column("entity", sa.Text, nullable=False),
            sa.Column("entity_id", sa.Text, nullable=False),
            sa.Column("from_status", sa.Text),
            sa.Column("to_status", sa.Text, nullable=False),
            sa.Column("reason", sa.Text),
            sa.Column("event_id", UUID(as_uuid=True)),
            sa.Column("detail", JSONB),
            sa.Column("at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        ],
    }


def platform_tables(metadata: sa.MetaData) -> PlatformTables:
    """Declare the platform tables in a service's metadata (its schema)."""
    tables = PlatformTables(**{name: sa.Table(name, metadata, *cols) for name, cols in _columns().items()})
    sa.Index(UNPUBLISHED_INDEX, tables.outbox.c.id, postgresql_where=tables.outbox.c.published_at.is_(None))
    return tables


def create_platform_tables(op, schema: str) -> None:
    """Used by each service's first migration."""
    for name, cols in _columns().items():
        op.create_table(name, *cols, schema=schema)
    op.create_index(UNPUBLISHED_INDEX, "outbox", ["id"], schema=schema,
                    postgresql_where=sa.text("published_at IS NULL"))
