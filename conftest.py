"""Shared test fixtures: a fresh Postgres database and the local Kafka broker (both real).

Tests that use ``database_url`` or ``kafka_bootstrap`` are marked ``infra`` automatically;
`make test` starts both first (`scripts/infra start`).
"""

import asyncio
import contextlib
import os
import socket
import uuid

import psycopg
import pytest
from aiokafka.admin import AIOKafkaAdminClient, NewTopic

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
def read_in_process():
    """``run_in_process`` that reads each PDF once a session: the quality gates and the review desk's
    property test read the same golden and real documents (about 4 minutes on two cores). A reading
    served again reports no time of its own, so its throughput means nothing: ``make bench`` measures."""
    import dataclasses

    from skuflow_cli.evaluation.runner import run_in_process

    read = {}

    def run(documents):
        missing = [d for d in documents if d.pdf.resolve() not in read]
        for document, outcome in zip(missing, run_in_process(missing), strict=True):
            read[document.pdf.resolve()] = outcome
        return [dataclasses.replace(read[d.pdf.resolve()], document=d) for d in documents]

    return run


@pytest.fixture(scope="session")
def kafka_bootstrap() -> str:
    host, port = KAFKA.rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=3).close()
    except OSError as exc:
        pytest.fail(f"Kafka is not reachable at {KAFKA} ({exc}); run `make infra-up`")
    return KAFKA


@pytest.fixture
def new_topic(kafka_bootstrap):
    """``await new_topic(prefix, partitions)``: a topic of its own on the real broker, for a test that
    reads offsets or lag without the pipeline's traffic (the broker does not create topics on use)."""
    async def create(prefix: str, partitions: int = 1) -> str:
        topic = f"skuflow.test.{prefix}-{uuid.uuid4().hex[:8]}"
        admin = AIOKafkaAdminClient(bootstrap_servers=kafka_bootstrap)
        await admin.start()
        try:
            await admin.create_topics([NewTopic(topic, num_partitions=partitions, replication_factor=1)])
        finally:
            await admin.close()
        return topic

    return create


class TcpProxy:
    """A TCP forwarder a test can cut and restore: an outage of the real Postgres or Kafka
    as one client sees it, without stopping the server other tests share."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self._server: asyncio.base_events.Server | None = None
        self._links: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        """Refuse new connections and break the open ones."""
        self._server.close()
        await self._server.wait_closed()
        for writer in list(self._links):
            writer.transport.abort()
        self._links.clear()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._links |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()
                self._links.discard(dst)

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))


@pytest.fixture
async def postgres_proxy(database_url):
    """``(proxy, url)``: the test database reached through a proxy the test can cut."""
    from sqlalchemy.engine import make_url

    url = make_url(database_url)
    proxy = TcpProxy(url.host, url.port or 5432)
    await proxy.start()
    yield proxy, url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    with contextlib.suppress(Exception):
        await proxy.cut()


@pytest.fixture
async def kafka_proxy(kafka_bootstrap):
    """``(proxy, bootstrap)``: the broker's bootstrap address through a proxy the test can cut (the
    broker's metadata still names the broker itself, so only the first connection goes through it)."""
    host, port = kafka_bootstrap.rsplit(":", 1)
    proxy = TcpProxy(host, int(port))
    await proxy.start()
    yield proxy, f"127.0.0.1:{proxy.port}"
    with contextlib.suppress(Exception):
        await proxy.cut()


@contextlib.asynccontextmanager
async def service_handlers(database_url: str, definition, subscriptions, storage_root):
    """A service's event handlers over the real Postgres (its schema migrated) and a local store, for
    tests that drive handlers directly: ``db``, ``storage``, ``handlers`` by topic name."""
    from types import SimpleNamespace

    from skuflow_platform.db import Database, migrate
    from skuflow_platform.storage import LocalStorage

    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    db = Database(database_url)
    storage = LocalStorage(storage_root)
    handlers = {topic.name: handler for topic, handler in subscriptions(SimpleNamespace(storage=storage))}
    try:
        yield SimpleNamespace(db=db, storage=storage, handlers=handlers)
    finally:
        await db.close()


@pytest.fixture(scope="session")
def service_of(database_url, tmp_path_factory):
    """``service_handlers`` for a service's definition and subscriptions (``storage_root``: a store shared
    with other services' handlers; by default one of its own)."""
    return lambda definition, subscriptions, storage_root=None: service_handlers(
        database_url, definition, subscriptions, storage_root or tmp_path_factory.mktemp("storage"))


@pytest.fixture
def wrong_tokens():
    """``wrong_tokens(secret, merchant)``: every way a bearer token can be wrong, each of which a
    service must answer with 401 (the security tables of gateway and collab)."""
    import base64
    import json
    import time

    import jwt

    from skuflow_platform.auth import mint_token

    def b64(data: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()

    def tokens(secret: str, merchant: str) -> dict[str, str]:
        head, body, signature = mint_token(user_id="u", merchant_id=merchant, secret=secret).split(".")
        claims = {"sub": "u", "merchant_id": merchant, "roles": ["admin"], "exp": int(time.time()) + 600}
        return {
            "no token": "",
            "alg=none": f"{b64({'alg': 'none', 'typ': 'JWT'})}.{b64(claims)}.",
            "tampered signature": f"{head}.{body}.{signature[:-2]}{'AA' if signature[-2:] != 'AA' else 'BB'}",
            "elevated claims, old signature": f"{head}.{b64(claims)}.{signature}",
            "expired": jwt.encode({**claims, "exp": int(time.time()) - 5}, secret, algorithm="HS256"),
            "another secret": jwt.encode(claims, "x" * 48, algorithm="HS256"),
        }

    return tokens
