"""Shared test fixtures: a fresh Postgres database and the local Kafka broker (both real).

Tests that use ``database_url`` or ``kafka_bootstrap`` are marked ``infra`` automatically;
`make test` starts both first (`scripts/infra start`).
"""

import os
import socket

import psycopg
import pytest

ADMIN_DSN = os.environ.get("SKUFLOW_TEST_ADMIN_DSN", "postgresql://skuflow:skuflow@127.0.0.1:5432/skuflow")
TEST_DATABASE = os.environ.get("SKUFLOW_TEST_DATABASE", "skuflow_test")
KAFKA = os.environ.get("SKUFLOW_KAFKA_BOOTSTRAP", "127.0.0.1:9092")
INFRA_FIXTURES = {"database_url", "kafka_bootstrap", "pipeline"}


def pytest_collection_modifyitems(items):
    for item in items:
        if INFRA_FIXTURES & set(item.fixturenames):
            item.add_marker(pytest.mark.infra)


@pytest.fixture(scope="session")
def database_url() -> str:
    """A database created afresh for this test session (dropped first if a previous run left it)."""
    try:
        conn = psycopg.connect(ADMIN_DSN, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        pytest.fail(f"PostgreSQL is not reachable at {ADMIN_DSN} ({exc}); run `make infra-up`")
    with conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{TEST_DATABASE}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{TEST_DATABASE}"')
    base = ADMIN_DSN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
    return f"{base}/{TEST_DATABASE}"


@pytest.fixture(scope="session")
def kafka_bootstrap() -> str:
    host, port = KAFKA.rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=3).close()
    except OSError as exc:
        pytest.fail(f"Kafka is not reachable at {KAFKA} ({exc}); run `make infra-up`")
    return KAFKA
