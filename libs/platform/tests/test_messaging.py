"""The runtime's delivery guarantees against the real Postgres and the real Kafka broker."""

import asyncio
import json
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa
from faststream.kafka import KafkaBroker

from skuflow_contracts.codec import encode, envelope_for
from skuflow_contracts.events import PageClassified, PageParsed
from skuflow_contracts.results import PageClassification
from skuflow_contracts.topics import PAGE_CLASSIFIED, PAGE_FAILED, PAGE_PARSED
from skuflow_platform.consumer import EventConsumer, PermanentError
from skuflow_platform.db import Database, migrate
from skuflow_platform.deadletter import DeadLetters
from skuflow_platform.dlq import list_dead_letters, replay
from skuflow_platform.faults import Health
from skuflow_platform.metrics import once_committed
from skuflow_platform.outbox import OutboxRelay
from skuflow_platform.tables import platform_tables
from skuflow_platform.topic_reader import end_offsets, read_since
from skuflow_platform.tracing import configure_tracing

SCHEMA = "platform_test"
TABLES = platform_tables(sa.MetaData(schema=SCHEMA))
HASH = "cd" * 32


def page_parsed(job_id: str, page: int = 1) -> bytes:
    payload = PageParsed(page=page, total_pages=3, file_hash=HASH, route="AUTO", config_version="v1",
                         ir_uri="local://ir.json", parser_backend="pymupdf")
    return encode(envelope_for(payload, job_id=job_id, merchant_id="m1", producer="test")[1])


@pytest.fixture(scope="module")
async def runtime(database_url, kafka_bootstrap):
    configure_tracing("platform-test")
    await asyncio.to_thread(migrate, database_url, SCHEMA, Path(__file__).parent / "migrations")
    db = Database(database_url)
    broker = KafkaBroker(kafka_bootstrap)
    await broker.start()
    health = Health({"database": db.ping, "broker": lambda: broker.ping(timeout=2)})
    relay = OutboxRelay(db, TABLES.outbox, broker, poll_seconds=0.2, health=health)
    consumer = EventConsumer(service="platform-test", db=db, tables=TABLES, relay=relay,
                             dead_letters=DeadLetters(broker, "platform-test"), retries=2,
                             backoff_seconds=0.01, health=health)
    yield consumer
    await broker.stop()
    await db.close()


async def count(db: Database, table: sa.Table, where) -> int:
    async with db.transaction() as conn:
        return (await conn.execute(sa.select(sa.func.count()).select_from(table).where(where))).scalar_one()


def test_migrations_are_idempotent(database_url):
    versions = Path(__file__).parent / "migrations"
    migrate(database_url, SCHEMA, versions)
    migrate(database_url, SCHEMA, versions)
    engine = sa.create_engine(database_url)
    with engine.connect() as conn:
        tables = set(sa.inspect(conn).get_table_names(schema=SCHEMA))
    engine.dispose()
    assert {"processed_events", "outbox", "state_transitions", "alembic_version"} <= tables


async def test_an_event_is_handled_once_and_its_output_is_in_the_same_transaction(runtime, request):
    job = f"{request.node.name}-{uuid.uuid4().hex[:8]}"
    calls = []

    async def handler(envelope, uow):
        calls.append(envelope.event_id)
        classification = PageClassification(page_type="C", page_type_confidence=0.9, layout="L2")
        uow.emit(envelope.payload.advance(PageClassified, classification=classification))
        await uow.transition("page", f"{job}/1", "AI_QUEUED", "AI_PROCESSING")

    body = page_parsed(job)
    assert await runtime.process(PAGE_PARSED.name, body, job.encode(), handler) == "handled"
    assert await runtime.process(PAGE_PARSED.name, body, job.encode(), handler) == "duplicate"
    assert len(calls) == 1
    assert await count(runtime.db, TABLES.outbox, TABLES.outbox.c.message_key == job) == 1
    assert await count(runtime.db, TABLES.state_transitions, TABLES.state_transitions.c.entity_id == f"{job}/1") == 1


async def test_a_failed_handler_leaves_no_state_behind(runtime, request):
    job = f"{request.node.name}-{uuid.uuid4().hex[:8]}"

    async def handler(envelope, uow):
        classification = PageClassification(page_type="C", page_type_confidence=0.9, layout="L2")
        uow.emit(envelope.payload.advance(PageClassified, classification=classification))
        raise PermanentError("the page cannot be classified")

    assert await runtime.process(PAGE_PARSED.name, page_parsed(job), job.encode(), handler) == "dead_lettered"
    assert await count(runtime.db, TABLES.outbox, TABLES.outbox.c.message_key == job) == 0
    assert await count(runtime.db, TABLES.processed_events, sa.true()) >= 0


async def test_what_a_handler_counts_is_counted_once_by_the_attempt_that_commits(runtime, request):
    job = f"{request.node.name}-{uuid.uuid4().hex[:8]}"
    counted, attempts = [], []

    async def flaky_once(envelope, uow):
        once_committed(counted.append, envelope.event_id)
        attempts.append(1)
        if len(attempts) == 1:
            raise RuntimeError("connection reset mid-page")

    async def never(envelope, uow):
        once_committed(counted.append, "never")
        raise PermanentError("the page cannot be classified")

    assert await runtime.process(PAGE_PARSED.name, page_parsed(job), job.encode(), flaky_once) == "handled"
    assert len(attempts) == 2 and len(counted) == 1  # the rolled-back attempt counted nothing
    assert await runtime.process(PAGE_PARSED.name, page_parsed(job, 2), job.encode(), never) == "dead_lettered"
    assert "never" not in counted
    once_committed(counted.append, "outside")  # no transaction: counted at once
    assert counted[-1] == "outside"


async def test_retries_then_dead_letter_with_the_error_and_a_page_failed_event(runtime, request,
                                                                                kafka_bootstrap):
    job = f"{request.node.name}-{uuid.uuid4().hex[:8]}"
    dlq_start = await end_offsets(kafka_bootstrap, PAGE_PARSED.dlq)
    failed_start = await end_offsets(kafka_bootstrap, PAGE_FAILED.name)
    attempts = []

    async def flaky(envelope, uow):
        attempts.append(1)
        raise RuntimeError("disk on fire")

    body = page_parsed(job, page=2)
    assert await runtime.process(PAGE_PARSED.name, body, job.encode(), flaky) == "dead_lettered"
    assert len(attempts) == 3  # first try + 2 retries

    [letter] = await read_since(kafka_bootstrap, dlq_start, key=job.encode())
    headers = {k: v.decode() for k, v in letter.headers}
    assert letter.value == body
    assert headers["x-original-topic"] == PAGE_PARSED.name
    assert headers["x-error"] == "disk on fire" and headers["x-attempts"] == "3"

    [failed] = await read_since(kafka_bootstrap, failed_start, key=job.encode())
    payload = json.loads(failed.value)["payload"]
    assert (payload["page"], payload["total_pages"], payload["stage"]) == (2, 3, "platform-test")


async def test_a_malformed_message_goes_to_the_dlq_without_calling_the_handler(runtime, kafka_bootstrap):
    start = await end_offsets(kafka_bootstrap, PAGE_PARSED.dlq)
    called = []

    async def handler(envelope, uow):
        called.append(envelope)

    key = b"malformed-test"
    body = b'{"event_type": "page.parsed", "schema_version": "1.0"}'
    outcome = await runtime.process(PAGE_PARSED.name, body, key, handler)
    assert outcome == "dead_lettered" and not called
    [letter] = await read_since(kafka_bootstrap, start, key=key)
    assert "invalid page.parsed event" in dict(letter.headers)["x-error"].decode()


async def test_the_relay_publishes_each_outbox_row_once_with_its_trace(runtime, request, kafka_bootstrap):
    job = f"{request.node.name}-{uuid.uuid4().hex[:8]}"
    start = await end_offsets(kafka_bootstrap, PAGE_CLASSIFIED.name)

    async def handler(envelope, uow):
        classification = PageClassification(page_type="A", page_type_confidence=0.9, layout="L1")
        uow.emit(envelope.payload.advance(PageClassified, classification=classification))

    await runtime.process(PAGE_PARSED.name, page_parsed(job), job.encode(), handler)
    while await runtime.relay.relay_once():
        pass
    assert await runtime.relay.relay_once() == 0
    [record] = await read_since(kafka_bootstrap, start, key=job.encode())
    event = json.loads(record.value)
    assert event["event_type"] == "page.classified" and event["job_id"] == job
    assert dict(record.headers)["traceparent"].decode() == event["traceparent"]
    unpublished = TABLES.outbox.c.published_at.is_(None) & (TABLES.outbox.c.message_key == job)
    assert await count(runtime.db, TABLES.outbox, unpublished) == 0


async def test_replay_sends_dead_letters_back_once(runtime, request, kafka_bootstrap):
    job = f"{request.node.name}-{uuid.uuid4().hex[:8]}"

    async def broken(envelope, uow):
        raise PermanentError("bug in handler")

    body = page_parsed(job)
    await runtime.process(PAGE_PARSED.name, body, job.encode(), broken)
    listed = await list_dead_letters(kafka_bootstrap, [PAGE_PARSED.name])
    assert any(row["key"] == job and row["error"] == "bug in handler" for row in listed)

    start = await end_offsets(kafka_bootstrap, PAGE_PARSED.name)
    replayed = await replay(kafka_bootstrap, [PAGE_PARSED.name])
    [ours] = [row for row in replayed if row["key"] == job]
    [record] = await read_since(kafka_bootstrap, start, key=job.encode())
    assert record.value == body
    assert not any(k.startswith("x-") for k, _ in record.headers)
    again = await replay(kafka_bootstrap, [PAGE_PARSED.name])
    assert (ours["partition"], ours["offset"]) not in {(row["partition"], row["offset"]) for row in again}


async def test_replay_of_one_job_sends_only_its_letters(runtime, request, kafka_bootstrap):
    ours, other = (f"{request.node.name}-{name}-{uuid.uuid4().hex[:6]}" for name in ("ours", "other"))

    async def broken(envelope, uow):
        raise PermanentError("bug in handler")

    for job in (ours, other):
        await runtime.process(PAGE_PARSED.name, page_parsed(job), job.encode(), broken)
    listed = await list_dead_letters(kafka_bootstrap, [PAGE_PARSED.name], job_id=ours)
    assert [row["key"] for row in listed] == [ours]
    replayed = await replay(kafka_bootstrap, [PAGE_PARSED.name], job_id=ours)
    assert {row["key"] for row in replayed} == {ours}
    rest = await replay(kafka_bootstrap, [PAGE_PARSED.name])  # the per-job replay committed nothing
    assert other in {row["key"] for row in rest}
