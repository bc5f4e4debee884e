"""Re-reads after a correction (issue 42) on the real Postgres: a page read again within its generation
is delivered as a new revision that supersedes the SKUs it changed; a person's review outranks every
machine reading, arriving before a re-read or after it; a reading older than the one stored changes
nothing, and is counted as refused by INV-07."""

import asyncio
import uuid
from types import SimpleNamespace

import pytest
import sqlalchemy as sa
from prometheus_client import REGISTRY

from skuflow_contracts.codec import decode, envelope_for
from skuflow_contracts.events import AdaptedFrom, PageBound, PageReviewed
from skuflow_contracts.results import PageResult, SkuAttributes, SkuRecord
from skuflow_contracts.revisions import machine_revision, review_revision
from skuflow_contracts.topics import JOB_COMPLETED, PAGE_BOUND, PAGE_REVIEWED, SKU_DELIVERED, SKU_SUPERSEDED
from skuflow_output.service import definition, subscriptions
from skuflow_output.tables import page_results
from skuflow_platform.consumer import run_handler
from skuflow_platform.db import Database, migrate
from skuflow_platform.storage import LocalStorage

OUTBOX = definition.tables.outbox
HASH = "4e" * 32
REREAD = machine_revision(0, reading=1)


def result(price: str, needs_review: bool, status: str = "AI_COMPLETED", page: int = 2) -> PageResult:
    """The page's two SKUs; ``price`` is the first one's (what a re-read or a review changes)."""
    skus = [SkuRecord(sku_id=f"{HASH[:8]}_p{page:02d}_{n:03d}", validity="valid",
                      attributes=SkuAttributes(model=f"AB-{n}", price=price if n == 1 else "5.00"),
                      source_bbox=(0, 0, 1, 1), confidence=0.6 if needs_review else 0.95) for n in (1, 2)]
    return PageResult(page=page, status="HUMAN_QUEUED" if needs_review else status, page_type="A", layout="L1",
                      needs_review=needs_review, parser_backend="pymupdf", extraction_method="table_rule", skus=skus)


def reading(number: int, price: str, needs_review: bool, page: int = 2) -> PageBound:
    """The machine's ``number``-th reading of the page (of 2); a re-read learned from page 1's correction."""
    learned = AdaptedFrom(job_id="j", page=1, task_id="t1") if number else None
    return PageBound(page=page, total_pages=2, file_hash=HASH, route="AUTO", config_version="v1",
                     ir_uri="local://ir", reading=number, layout="sig-a", adapted_from=learned,
                     result=result(price, needs_review, page=page))


def review(price: str, read: int = 0) -> PageReviewed:
    """A person's review of page 2 as collab numbers it: above the newest reading it knew of."""
    return PageReviewed(page=2, total_pages=2, file_hash=HASH, route="AUTO", config_version="v1",
                        ir_uri="local://ir", task_id="t2", revision=review_revision(0, 0, reading=read),
                        result=result(price, False, status="HUMAN_COMPLETED"))


@pytest.fixture
async def output(database_url, tmp_path):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    db = Database(database_url)
    handlers = {topic.name: handler for topic, handler in subscriptions(
        SimpleNamespace(storage=LocalStorage(tmp_path), settings=SimpleNamespace(jwt_secret="s" * 40)))}
    job_id = f"job-{uuid.uuid4().hex[:8]}"

    async def handle(topic, payload) -> None:
        _, envelope = envelope_for(payload, job_id=job_id, merchant_id="m", producer="test")
        async with db.transaction() as conn:
            await run_handler(handlers[topic.name], envelope, conn, definition.tables, "output")

    async def sent(topic) -> list:
        async with db.transaction() as conn:
            bodies = (await conn.execute(sa.select(OUTBOX.c.body).where(
                OUTBOX.c.message_key == job_id, OUTBOX.c.topic == topic.name).order_by(OUTBOX.c.id))).scalars()
            return [decode(topic.name, body).payload for body in bodies]

    async def stored() -> tuple[int, str]:
        """Page 2's stored revision and its first SKU's price."""
        async with db.transaction() as conn:
            row = (await conn.execute(sa.select(page_results.c.revision, page_results.c.result).where(
                page_results.c.job_id == job_id, page_results.c.page == 2))).one()
        return row.revision, row.result["skus"][0]["attributes"]["price"]

    await handle(PAGE_BOUND, reading(0, "1.00", needs_review=False, page=1))  # the job's other page, delivered
    yield SimpleNamespace(handle=handle, sent=sent, stored=stored)
    await db.close()


def inv_07() -> float:
    return REGISTRY.get_sample_value("invariant_violation_total", {"invariant_id": "INV-07"}) or 0.0


def page_two(payloads: list) -> list:
    return [p for p in payloads if p.page == 2]


async def test_a_re_read_supersedes_only_the_skus_it_changed_of_the_first_reading(output):
    await output.handle(PAGE_BOUND, reading(0, "9.90", needs_review=False))
    await output.handle(PAGE_BOUND, reading(1, "19.90", needs_review=False))  # learned from page 1's correction
    delivered = page_two(await output.sent(SKU_DELIVERED))
    assert [(d.revision, d.sku.sku_id[-3:], d.sku.attributes.price) for d in delivered] == [
        (1, "001", "9.90"), (1, "002", "5.00"), (REREAD, "001", "19.90")]  # the unchanged SKU keeps its key
    [superseded] = await output.sent(SKU_SUPERSEDED)
    assert (superseded.sku_id[-3:], superseded.revision, superseded.superseded_by) == ("001", 1, REREAD)
    assert await output.stored() == (REREAD, "19.90")


async def test_a_re_read_arriving_after_a_review_is_ignored_and_the_review_stands(output):
    await output.handle(PAGE_BOUND, reading(0, "9.90", needs_review=True))
    await output.handle(PAGE_REVIEWED, review("12.00"))
    refused = inv_07()
    await output.handle(PAGE_BOUND, reading(1, "19.90", needs_review=False))
    assert inv_07() == refused + 1
    assert [(d.revision, d.sku.attributes.price) for d in page_two(await output.sent(SKU_DELIVERED))] == [
        (2, "12.00"), (2, "5.00")]
    assert await output.sent(SKU_SUPERSEDED) == []
    assert await output.stored() == (2, "12.00")


async def test_a_review_of_an_earlier_reading_outranks_a_re_read_delivered_before_it(output):
    """The person was on the page when the re-read came: their review is the page's, whatever its number."""
    await output.handle(PAGE_BOUND, reading(0, "9.90", needs_review=True))
    await output.handle(PAGE_BOUND, reading(1, "19.90", needs_review=False))
    await output.handle(PAGE_REVIEWED, review("12.00"))  # numbered as if collab had not heard of the re-read
    delivered = page_two(await output.sent(SKU_DELIVERED))
    assert [(d.revision, d.sku.attributes.price) for d in delivered] == [
        (REREAD, "19.90"), (REREAD, "5.00"), (2, "12.00")]
    [superseded] = await output.sent(SKU_SUPERSEDED)
    assert (superseded.revision, superseded.superseded_by) == (REREAD, 2)
    assert await output.stored() == (2, "12.00")


async def test_a_re_read_that_needs_no_review_completes_the_job_and_an_older_reading_after_it_is_ignored(output):
    await output.handle(PAGE_BOUND, reading(0, "9.90", needs_review=True))
    assert [c.status for c in await output.sent(JOB_COMPLETED)] == ["PARTIAL_IMPORTED"]
    await output.handle(PAGE_BOUND, reading(1, "19.90", needs_review=False))
    assert [c.status for c in await output.sent(JOB_COMPLETED)] == ["PARTIAL_IMPORTED", "FULL_IMPORTED"]
    refused = inv_07()
    await output.handle(PAGE_BOUND, reading(0, "9.90", needs_review=True))  # the first reading, heard again late
    await output.handle(PAGE_BOUND, reading(1, "19.90", needs_review=False))  # and the re-read redelivered
    assert inv_07() == refused + 1  # the older reading refused; the same one again is a repeat
    assert [c.status for c in await output.sent(JOB_COMPLETED)] == ["PARTIAL_IMPORTED", "FULL_IMPORTED"]
    assert [d.revision for d in page_two(await output.sent(SKU_DELIVERED))] == [REREAD, REREAD]
    assert await output.stored() == (REREAD, "19.90")


async def test_a_re_read_sent_back_to_a_person_withdraws_what_the_page_delivered(output):
    """A correction reverted: the page's adapted reading was delivered; the re-read without it needs review."""
    await output.handle(PAGE_BOUND, reading(0, "9.90", needs_review=True))
    await output.handle(PAGE_BOUND, reading(1, "19.90", needs_review=False))  # adapted: delivered
    await output.handle(PAGE_BOUND, reading(2, "9.90", needs_review=True))  # the correction reverted
    assert [(d.revision, d.sku.attributes.price) for d in page_two(await output.sent(SKU_DELIVERED))] == [
        (REREAD, "19.90"), (REREAD, "5.00")]
    withdrawn = await output.sent(SKU_SUPERSEDED)
    assert sorted((w.sku_id[-3:], w.revision, w.superseded_by) for w in withdrawn) == [
        ("001", REREAD, machine_revision(0, 2)), ("002", REREAD, machine_revision(0, 2))]
    assert await output.stored() == (machine_revision(0, 2), "9.90")
