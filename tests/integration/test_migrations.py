"""Each service's migrations build exactly the tables its code queries (no drift between the two).

Migrations spell tables out explicitly, as Alembic's autogenerate would, and ``tables.py`` declares
them for queries; this test is what keeps the two copies honest.
"""

import importlib
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from skuflow_cli.evaluation import store
from skuflow_cli.supervisor import SERVICES
from skuflow_platform.db import migrate


def schemas():
    """(schema, metadata, migrations) of every service, the evaluation runner's reports and the LLM adapter."""
    for service in SERVICES:
        definition = importlib.import_module(f"skuflow_{service}.service").definition
        yield pytest.param(definition.schema, definition.metadata, definition.versions_dir, id=service)
    yield pytest.param("evaluation", store.metadata, Path(store.__file__).parent / "migrations", id="evaluation")
    llm = importlib.import_module("skuflow_llm.tables")
    yield pytest.param(llm.SCHEMA, llm.metadata, Path(llm.__file__).parent / "migrations", id="llm")


@pytest.mark.parametrize("schema, metadata, versions_dir", list(schemas()))
def test_migrations_match_the_declared_tables(database_url, schema, metadata, versions_dir):
    migrate(database_url, schema, versions_dir)
    migrate(database_url, schema, versions_dir)  # idempotent

    def only_this_schema(name, type_, parent_names):
        if type_ == "schema":
            return name == schema
        return name != "alembic_version"

    engine = sa.create_engine(database_url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={
                "include_schemas": True, "include_name": only_this_schema, "compare_server_default": False})
            differences = compare_metadata(context, metadata)
    finally:
        engine.dispose()
    assert differences == []
