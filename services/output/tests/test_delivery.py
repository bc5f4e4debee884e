"""Downstream delivery on the real Postgres and Kafka: a re-sent batch and a re-upload of the same
file by two merchants reach an importer that follows the README exactly once each."""

import asyncio
import json
import uuid
from types import SimpleNamespace

import pytest
import sqlalchemy as sa
from faststream.kafka import KafkaBroker

from skuflow_contracts.codec import envelope_for
from skuflow_contracts.events import PageBound
from skuflow_contracts.results import PageResult, SkuAttributes, SkuRecord
from skuflow_contracts.topics import SKU_DELIVERED
from skuflow_output.service import definition, subscriptions
from skuflow_platform.consumer import run_handler
from skuflow_platform.db import Database, migrate
from skuflow_platform.faults import Health
from skuflow_platform.outbox import OutboxRelay
from skuflow_platform.storage import LocalStorage
from skuflow_platform.topic_reader import end_offsets, read_since

OUTBOX = definition.tables.outbox
HASH = "5e" * 32  # the same file uploaded by both merchants


def page_bound(skus: int) -> PageBound:
    records = [SkuRecord(sku_id=f"{HASH[:8]}_p01_{n:03d}", validity="valid",
                         attributes=SkuAttributes(model=f"AB-{n}"), source_bbox=(0, 0, 1, 1), confidence=0.9)
               for n in range(1, skus + 1)]
    result = PageResult(page=1, status="AI_COMPLETED", page_type="A", layout="L1", needs_review=False,
                        parser_backend="pymupdf", extraction_method="table_rule", skus=records)
    return PageBound(page=1, total_pages=1, file_hash=HASH, route="AUTO", config_version="v1",
                     ir_uri="local://ir.json", result=result)


@pytest.fixture(scope="module")
async def output(database_url, kafka_bootstrap, tmp_path_factory):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    db = Database(database_url)
    broker = KafkaBroker(kafka_bootstrap)
    await broker.start()
    storage = LocalStorage(tmp_path_factory.mktemp("storage"))
    ctx = SimpleNamespace(storage=storage, settings=SimpleNamespace(jwt_secret="s" * 40))
    handlers = {topic.name: handler for topic, handler in subscriptions(ctx)}
    relay = OutboxRelay(db, OUTBOX, broker, poll_seconds=0.2, health=Health({}))
    yield SimpleNamespace(db=db, handlers=handlers, relay=relay)
    await broker.stop()
    await db.close()


async def bound(output, job_id: str, merchant: str, skus: int) -> None:
    from skuflow_contracts.topics import PAGE_BOUND

    _, envelope = envelope_for(page_bound(skus), job_id=job_id, merchant_id=merchant, producer="test")
    async with output.db.transaction() as conn:
        await run_handler(output.handlers[PAGE_BOUND.name], envelope, conn, definition.tables, "output")


def importer(records) -> dict[str, dict]:
    """What the README asks of a downstream importer: upsert by ``delivery_key``, ignore repeats."""
    imported: dict[str, dict] = {}
    for record in records:
        payload = json.loads(record.value)["payload"]
        imported.setdefault(payload["delivery_key"], payload)
    return imported


async def test_a_resent_batch_and_two_merchants_uploading_one_file_import_each_sku_exactly_once(
        output, kafka_bootstrap):
    start = await end_offsets(kafka_bootstrap, SKU_DELIVERED.name)
    jobs = {"merchant-a": f"job-{uuid.uuid4().hex[:8]}", "merchant-b": f"job-{uuid.uuid4().hex[:8]}"}
    for merchant, job_id in jobs.items():
        await bound(output, job_id, merchant, skus=4)
    while await output.relay.relay_once():
        pass
    # output killed between publish and mark: the rows are unpublished again and go out a second time
    async with output.db.transaction() as conn:
        await conn.execute(OUTBOX.update().where(OUTBOX.c.message_key.in_(jobs.values()))
                           .values(published_at=None))
    while await output.relay.relay_once():
        pass

    records = [r for job_id in jobs.values()
               for r in await read_since(kafka_bootstrap, start, key=job_id.encode(), expect=8)]
    sent = [json.loads(r.value) for r in records if json.loads(r.value)["event_type"] == "sku.delivered"]
    assert len(sent) == 16  # at least once: the batch really was sent twice
    imported = importer([r for r in records if json.loads(r.value)["event_type"] == "sku.delivered"])
    assert len(imported) == 8
    assert {payload["sku"]["sku_id"] for payload in imported.values()} == {f"{HASH[:8]}_p01_{n:03d}"
                                                                             for n in range(1, 5)}
    assert {key.split("/")[0] for key in imported} == {"merchant-a", "merchant-b"}
    assert all(key.endswith(payload["sku"]["sku_id"]) and payload["revision"] == 1
               for key, payload in imported.items())


async def test_a_redelivered_page_is_not_delivered_again(output):
    job_id = f"job-{uuid.uuid4().hex[:8]}"
    await bound(output, job_id, "merchant-a", skus=3)
    await bound(output, job_id, "merchant-a", skus=3)
    async with output.db.transaction() as conn:
        rows = (await conn.execute(sa.select(sa.func.count()).select_from(OUTBOX).where(
            (OUTBOX.c.message_key == job_id) & (OUTBOX.c.topic == SKU_DELIVERED.name)))).scalar_one()
    assert rows == 3
