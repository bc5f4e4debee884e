"""A cancel on the real Postgres: the output service confirms it with the result of what it delivered
before (the pages that went downstream, each with the SKUs that did), marked CANCELLED."""

import asyncio
import json
import uuid
from types import SimpleNamespace

import sqlalchemy as sa

from skuflow_contracts.codec import decode, envelope_for
from skuflow_contracts.events import JobCancelled, PageBound
from skuflow_contracts.results import PageResult, SkuAttributes, SkuRecord
from skuflow_contracts.topics import JOB_CANCEL_CONFIRMED, JOB_CANCELLED, PAGE_BOUND
from skuflow_output.service import definition, subscriptions
from skuflow_platform.consumer import run_handler
from skuflow_platform.db import Database, migrate
from skuflow_platform.storage import LocalStorage

HASH = "c4" * 32


def page_bound(page: int, needs_review: bool) -> PageBound:
    """Two valid SKUs and an invalid one (never delivered); a doubted page waits for its review."""
    skus = [SkuRecord(sku_id=f"{HASH[:8]}_p{page:02d}_{n:03d}", validity="valid" if n < 3 else "invalid",
                      attributes=SkuAttributes(model=f"AB-{n}"), source_bbox=(0, 0, 1, 1), confidence=0.9)
            for n in range(1, 4)]
    result = PageResult(page=page, status="HUMAN_QUEUED" if needs_review else "AI_COMPLETED", page_type="A",
                        layout="L1", needs_review=needs_review, parser_backend="pymupdf",
                        extraction_method="table_rule", skus=skus)
    return PageBound(page=page, total_pages=3, file_hash=HASH, route="AUTO", config_version="v1",
                     ir_uri="local://ir.json", result=result)


async def test_a_cancel_is_confirmed_with_the_result_of_what_was_delivered(database_url, tmp_path):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    db = Database(database_url)
    storage = LocalStorage(tmp_path)
    handlers = {topic.name: handler for topic, handler in subscriptions(
        SimpleNamespace(storage=storage, settings=SimpleNamespace(jwt_secret="s" * 40)))}
    job_id = f"job-{uuid.uuid4().hex[:8]}"

    async def handle(topic, payload) -> None:
        _, envelope = envelope_for(payload, job_id=job_id, merchant_id="merchant-c", producer="test")
        async with db.transaction() as conn:
            await run_handler(handlers[topic.name], envelope, conn, definition.tables, "output")

    await handle(PAGE_BOUND, page_bound(1, needs_review=False))  # delivered: its two valid SKUs
    await handle(PAGE_BOUND, page_bound(2, needs_review=True))  # waits for a person: nothing delivered
    await handle(JOB_CANCELLED, JobCancelled(cancelled_by="user-1"))
    await handle(PAGE_BOUND, page_bound(3, needs_review=False))  # read after the cancel: not delivered
    outbox = definition.tables.outbox
    async with db.transaction() as conn:
        [body] = (await conn.execute(sa.select(outbox.c.body).where(
            outbox.c.topic == JOB_CANCEL_CONFIRMED.name, outbox.c.message_key == job_id))).scalars().all()
    await db.close()
    confirmed = decode(JOB_CANCEL_CONFIRMED.name, body).payload
    assert confirmed.delivered_skus == 2 and confirmed.result_uri == f"local://results/{job_id}/result.json"
    result = json.loads(storage.get(confirmed.result_uri))
    assert (result["job"]["status"], result["job"]["total_pages"]) == ("CANCELLED", 3)
    assert [(page["page"], [sku["sku_id"] for sku in page["skus"]]) for page in result["pages"]] == [
        (1, [f"{HASH[:8]}_p01_001", f"{HASH[:8]}_p01_002"])]
