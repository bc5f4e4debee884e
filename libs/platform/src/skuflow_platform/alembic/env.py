"""Shared Alembic environment: each service keeps its revisions, this file runs them in its schema."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

config = context.config
schema = config.attributes["schema"]
engine = sa.create_engine(config.get_main_option("sqlalchemy.url"), poolclass=sa.pool.NullPool)

with engine.begin() as connection:
    # One service replica migrates at a time; the others wait on the advisory lock.
    connection.execute(sa.text("SELECT pg_advisory_xact_lock(hashtext(:s))"), {"s": schema})
    connection.execute(sa.text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
    context.configure(connection=connection, version_table_schema=schema, transactional_ddl=True)
    context.run_migrations()
engine.dispose()
