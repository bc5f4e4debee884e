"""Outages of the real Postgres, as one consumer sees them, are waited out instead of dead-lettered."""

import asyncio
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa
from faststream.kafka import KafkaBroker

from skuflow_contracts.codec import encode, envelope_for
from skuflow_contracts.events import PageClassified, PageParsed
from skuflow_contracts.results import PageClassification
from skuflow_contracts.topics import PAGE_PARSED
from skuflow_platform.consumer import EventConsumer
from skuflow_platform.db import Database, migrate
from skuflow_platform.deadletter import DeadLetters
from skuflow_platform.faults import Backoff, Health, when_reachable
from skuflow_platform.outbox import OutboxRelay
from skuflow_platform.tables import platform_tables
from skuflow_platform.topic_reader import end_offsets, read_since

SCHEMA = "platform_test"  # the test migrations create this schema
TABLES = platform_tables(sa.MetaData(schema=SCHEMA))


def page_parsed(job_id: str) -> bytes:
    payload = PageParsed(page=1, total_pages=1, file_hash="ab" * 32, route="AUTO", config_version="v1",
                         ir_uri="local://ir.json", parser_backend="pymupdf")
    return encode(envelope_for(payload, job_id=job_id, merchant_id="m1", producer="test")[1])


@pytest.fixture
async def consumer_behind_proxy(postgres_proxy, database_url, kafka_bootstrap):
    proxy, url = postgres_proxy
    await asyncio.to_thread(migrate, database_url, SCHEMA, Path(__file__).parent / "migrations")
    db = Database(url)
    broker = KafkaBroker(kafka_bootstrap)
    await broker.start()
    health = Health({"database": db.ping, "broker": lambda: broker.ping(timeout=2)},
                    backoff=Backoff(first=0.05, cap=0.2))
    relay = OutboxRelay(db, TABLES.outbox, broker, poll_seconds=0.2, health=health)
    consumer = EventConsumer(service="outage-test", db=db, tables=TABLES, relay=relay,
                             dead_letters=DeadLetters(broker, "outage-test"), retries=1,
                             backoff_seconds=0.01, health=health)
    yield proxy, consumer, health
    await broker.stop()
    await db.close()


async def test_a_database_outage_is_waited_out_and_nothing_is_dead_lettered(consumer_behind_proxy,
                                                                            kafka_bootstrap):
    proxy, consumer, health = consumer_behind_proxy
    job = f"outage-{uuid.uuid4().hex[:8]}"
    dlq_start = await end_offsets(kafka_bootstrap, PAGE_PARSED.dlq)
    handled = []

    async def handler(envelope, uow):
        handled.append(envelope.event_id)
        classification = PageClassification(page_type="A", page_type_confidence=0.9, layout="L1")
        uow.emit(envelope.payload.advance(PageClassified, classification=classification))

    await proxy.cut()
    work = asyncio.create_task(consumer.process(PAGE_PARSED.name, page_parsed(job), job.encode(), handler))
    for _ in range(200):
        if health.waiting:
            break
        await asyncio.sleep(0.05)
    assert health.waiting == {f"consumer {PAGE_PARSED.name}"}
    assert (await health.check()) == {"database": False, "broker": True}
    await asyncio.sleep(1.5)  # many times the retries × backoff that once ended in the DLQ
    assert not work.done()

    await proxy.start()
    assert await asyncio.wait_for(work, timeout=30) == "handled"
    assert len(handled) == 1 and not health.waiting
    assert await read_since(kafka_bootstrap, dlq_start, key=job.encode()) == []


async def test_a_message_that_fails_on_a_healthy_system_still_reaches_the_dlq(consumer_behind_proxy,
                                                                               kafka_bootstrap):
    _, consumer, _ = consumer_behind_proxy
    job = f"poison-{uuid.uuid4().hex[:8]}"
    dlq_start = await end_offsets(kafka_bootstrap, PAGE_PARSED.dlq)
    attempts = []

    async def poison(envelope, uow):
        attempts.append(1)
        raise ValueError("this page breaks the handler")

    assert await consumer.process(PAGE_PARSED.name, page_parsed(job), job.encode(), poison) == "dead_lettered"
    assert len(attempts) == 2
    assert len(await read_since(kafka_bootstrap, dlq_start, key=job.encode())) == 1


async def test_a_service_started_during_an_outage_waits_for_postgres_and_kafka_then_starts(
        postgres_proxy, kafka_proxy):
    """A service restarted while Postgres and Kafka are down (a crash during an outage) migrates and
    connects once they are back, instead of exiting (it once stayed down for the rest of the run)."""
    proxy, url = postgres_proxy
    kafka, bootstrap = kafka_proxy
    await proxy.cut()
    await kafka.cut()
    broker = KafkaBroker(bootstrap)
    fast = Backoff(first=0.1, cap=0.3)
    migrating = asyncio.create_task(when_reachable("database", lambda: asyncio.to_thread(
        migrate, url, SCHEMA, Path(__file__).parent / "migrations"), patience=30, backoff=fast))
    connecting = asyncio.create_task(when_reachable("broker", broker.start, patience=30, backoff=fast))
    await asyncio.sleep(1.5)
    assert not migrating.done() and not connecting.done()  # waiting, not exited
    await proxy.start()
    await kafka.start()
    await asyncio.wait_for(asyncio.gather(migrating, connecting), timeout=30)
    assert await broker.ping(timeout=5)
    await broker.stop()


async def test_a_start_fails_at_once_on_a_real_error_and_after_its_patience_on_an_outage():
    async def broken() -> None:
        raise ValueError("a bad migration")

    async def unreachable() -> None:
        raise ConnectionRefusedError("down")

    with pytest.raises(ValueError):
        await when_reachable("database", broken, patience=30)
    with pytest.raises(ConnectionRefusedError):
        await when_reachable("database", unreachable, patience=0.5, backoff=Backoff(first=0.1, cap=0.1))
