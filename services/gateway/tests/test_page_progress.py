"""The gateway's page read model on the real Postgres: a page's reading, a failure reported after it
was read, a page that never was, and the timeline events each one adds."""

import asyncio
import uuid

import sqlalchemy as sa

from skuflow_contracts.codec import envelope_for
from skuflow_contracts.events import PageBound, PageFailed
from skuflow_contracts.results import PageResult, SkuAttributes, SkuRecord
from skuflow_gateway import lifecycle, page_progress
from skuflow_gateway.service import definition
from skuflow_gateway.tables import job_events, job_pages
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.db import Database, migrate

HASH = "7a" * 32


def bound(page: int) -> PageBound:
    sku = SkuRecord(sku_id=f"{HASH[:8]}_p{page:02d}_001", validity="valid", attributes=SkuAttributes(model="AB-1"),
                    source_bbox=(0, 0, 1, 1), confidence=0.9)
    result = PageResult(page=page, status="AI_COMPLETED", page_type="A", layout="L1", needs_review=False,
                        parser_backend="pymupdf", extraction_method="table_rule", skus=[sku])
    return PageBound(page=page, total_pages=2, file_hash=HASH, route="AUTO", config_version="v1",
                     ir_uri="local://ir.json", result=result)


async def deliver(db: Database, job_id: str, payload) -> None:
    handlers = {topic.name: handler for topic, handler in page_progress.subscriptions()}
    spec, envelope = envelope_for(payload, job_id=job_id, merchant_id="m", producer="test")
    async with db.transaction() as conn:
        await handlers[spec.topic.name](envelope, UnitOfWork(conn, envelope, definition.tables, "gateway"))


async def test_a_failure_reported_after_a_page_was_read_does_not_undo_its_reading(database_url):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    db = Database(database_url)
    job_id = f"pp-{uuid.uuid4().hex[:8]}"
    async with db.transaction() as conn:
        await lifecycle.create_job(conn, job_id, merchant_id="m", uploaded_by="u", filename="c.pdf", file_hash=HASH,
                                   file_uri="local://c.pdf", size_bytes=10)
    await deliver(db, job_id, bound(1))
    await deliver(db, job_id, PageFailed(page=1, total_pages=2, stage="collab", error="boom", dlq_topic="t.dlq"))
    await deliver(db, job_id, PageFailed(page=2, total_pages=2, stage="classifier", error="lost", dlq_topic="t.dlq"))
    async with db.transaction() as conn:
        pages = dict((await conn.execute(sa.select(job_pages.c.page, job_pages.c.status).where(
            job_pages.c.job_id == job_id))).all())
        events = (await conn.execute(sa.select(job_events.c.seq, job_events.c.kind, job_events.c.data).where(
            job_events.c.job_id == job_id).order_by(job_events.c.seq))).all()
    await db.close()
    assert pages == {1: "AI_COMPLETED", 2: "DEAD_LETTER"}
    assert [e.seq for e in events] == [1, 2, 3, 4]  # upload, evaluation, page 1 read, page 2 failed
    assert [(e.kind, e.data.get("page_no"), e.data.get("status")) for e in events[2:]] == [
        ("page_completed", 1, "AI_COMPLETED"), ("page_completed", 2, "DEAD_LETTER")]
