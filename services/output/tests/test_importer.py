"""The HTTP importer on the real Postgres with a real receiver: a refused page is not called again
and is skipped after a day, which completes its job (§7.27); a review supersedes an import not yet
made and re-delivers only the SKUs it changed; a cancelled job's imports are skipped and nothing more
is sent; images go out as signed links, in sku.delivered and in an import body valid for its committed
schema."""

import asyncio
import json
import uuid
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import jsonschema_rs
import pytest
import sqlalchemy as sa

from skuflow_contracts.codec import decode, envelope_for
from skuflow_contracts.events import JobCancelled, PageBound, PageReviewed
from skuflow_contracts.results import BindingRecord, ImageLink, ImageRecord, PageResult, SkuAttributes, SkuRecord
from skuflow_contracts.topics import (
    JOB_CANCELLED,
    JOB_COMPLETED,
    PAGE_BOUND,
    PAGE_IMPORTED,
    PAGE_REVIEWED,
    SKU_DELIVERED,
    SKU_SUPERSEDED,
)
from skuflow_output.importer import Importer, ImportSettings
from skuflow_output.service import definition, subscriptions
from skuflow_output.tables import deliveries, imports
from skuflow_platform.consumer import run_handler
from skuflow_platform.db import Database, migrate
from skuflow_platform.signed_urls import FILES_PATH, check_signature
from skuflow_platform.storage import LocalStorage
from tests.e2e.import_receiver import Receiver

OUTBOX = definition.tables.outbox
HASH = "1a" * 32
SECRET = "s" * 40
IMPORT_SCHEMA = Path(__file__).parents[3] / "schemas" / "http-import.schema.json"
PHOTO = ImageRecord(image_id="img_1a1a1a1a_p01_001", bbox=(0, 0, 100, 100), role="PRODUCT_MAIN", short_edge=640,
                    source_uri="local://jobs/j/pages/0001/images/img_1a1a1a1a_p01_001.png")


def work(page: int = 1, revision: int = 1, price: str | None = None) -> PageBound | PageReviewed:
    """A page of two SKUs; ``price``, if given, is the first one's (a review's correction)."""
    skus = [SkuRecord(sku_id=f"{HASH[:8]}_p{page:02d}_{n:03d}", validity="valid",
                      attributes=SkuAttributes(model=f"AB-{n}", price=price if n == 1 else None),
                      source_bbox=(0, 0, 1, 1), confidence=0.9 if revision == 1 else 1.0)
            for n in range(1, 3)]
    result = PageResult(page=page, status="AI_COMPLETED", page_type="A", layout="L1", needs_review=False,
                        parser_backend="pymupdf", extraction_method="table_rule", skus=skus)
    common = dict(page=page, total_pages=1, file_hash=HASH, route="AUTO", config_version="v1",
                  ir_uri="local://ir.json", result=result)
    return PageReviewed(task_id="t1", revision=revision, **common) if revision > 1 else PageBound(**common)


@pytest.fixture
async def output(database_url, tmp_path, monkeypatch, request):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    receiver = Receiver(faults=getattr(request, "param", ("reject",)))
    server = receiver.serve()
    monkeypatch.setenv("SKUFLOW_IMPORT_URL", receiver.url)
    db = Database(database_url)
    async with db.transaction() as conn:  # due imports of earlier tests would be called here too
        await conn.execute(imports.delete())
    ctx = SimpleNamespace(db=db, storage=LocalStorage(tmp_path), tables=definition.tables,
                          settings=SimpleNamespace(jwt_secret=SECRET), relay=SimpleNamespace(wake=lambda: None))
    handlers = {topic.name: handler for topic, handler in subscriptions(ctx)}

    async def handle(topic, payload, job_id: str) -> None:
        _, envelope = envelope_for(payload, job_id=job_id, merchant_id="merchant-a", producer="test")
        async with db.transaction() as conn:
            await run_handler(handlers[topic.name], envelope, conn, definition.tables, "output")

    settings = ImportSettings(backoff_seconds=0, stale_seconds=3600)
    yield SimpleNamespace(db=db, handle=handle, receiver=receiver, importer=Importer(ctx, settings))
    server.should_exit = True
    await db.close()


async def import_rows(output, job_id: str) -> list[sa.Row]:
    async with output.db.transaction() as conn:
        return (await conn.execute(sa.select(imports).where(imports.c.job_id == job_id)
                                   .order_by(imports.c.revision))).all()


async def sku_statuses(output, job_id: str) -> list[tuple[int, str]]:
    async with output.db.transaction() as conn:
        return [tuple(row) for row in (await conn.execute(sa.select(deliveries.c.revision, deliveries.c.status).where(
            deliveries.c.job_id == job_id).order_by(deliveries.c.revision, deliveries.c.sku_id))).all()]


async def announced(output, job_id: str, topic) -> list:
    """The payloads of what the output service sent (its outbox) on ``topic`` for the job."""
    async with output.db.transaction() as conn:
        bodies = (await conn.execute(sa.select(OUTBOX.c.body).where(
            OUTBOX.c.message_key == job_id, OUTBOX.c.topic == topic.name).order_by(OUTBOX.c.id))).scalars()
        return [decode(topic.name, body).payload for body in bodies]


async def test_a_refused_page_is_not_called_again_and_is_skipped_after_a_day_which_completes_the_job(output):
    job_id = f"job-{uuid.uuid4().hex[:8]}"
    await output.handle(PAGE_BOUND, work(), job_id)
    assert await announced(output, job_id, JOB_COMPLETED) == []  # INV-04: the page is not imported yet
    assert await output.importer.import_due() == 1
    [row] = await import_rows(output, job_id)
    assert (row.status, row.attempts, row.next_attempt_at, row.last_error) == ("IMPORT_FAILED", 1, None, "HTTP 400")
    assert await sku_statuses(output, job_id) == [(1, "IMPORT_FAILED"), (1, "IMPORT_FAILED")]
    assert await output.importer.import_due() == 0  # refused content: calling again cannot help
    [failed] = await announced(output, job_id, PAGE_IMPORTED)
    await output.handle(PAGE_IMPORTED, failed, job_id)
    assert await announced(output, job_id, JOB_COMPLETED) == []  # a failing import holds the job
    assert await output.importer.reconcile() == 0  # failing for less than a day
    async with output.db.transaction() as conn:
        await conn.execute(imports.update().where(imports.c.job_id == job_id).values(
            failing_since=sa.func.now() - sa.text("interval '25 hours'")))
    assert await output.importer.reconcile() == 1
    [row] = await import_rows(output, job_id)
    assert row.status == "SKIPPED"
    notices = await announced(output, job_id, PAGE_IMPORTED)
    assert [(n.status, n.attempts) for n in notices] == [("IMPORT_FAILED", 1), ("SKIPPED", 1)]
    await output.handle(PAGE_IMPORTED, notices[-1], job_id)
    [completed] = await announced(output, job_id, JOB_COMPLETED)
    assert completed.status == "FULL_IMPORTED"
    assert output.receiver.calls["reject"] == 1


async def test_a_review_supersedes_an_import_not_yet_made(output):
    job_id = f"job-{uuid.uuid4().hex[:8]}"
    await output.handle(PAGE_BOUND, work(), job_id)
    await output.handle(PAGE_REVIEWED, work(revision=2, price="9.90"), job_id)
    assert [(r.revision, r.status) for r in await import_rows(output, job_id)] == [(1, "SUPERSEDED"), (2, "PENDING")]
    assert await sku_statuses(output, job_id) == [(1, "SUPERSEDED"), (1, "DELIVERED"), (2, "DELIVERED")]


@pytest.mark.parametrize("output", [("ok",)], indirect=True)
async def test_a_review_delivers_again_only_what_it_changed_and_imports_the_rest_under_its_keys(output):
    job_id = f"job-{uuid.uuid4().hex[:8]}"
    await output.handle(PAGE_BOUND, work(), job_id)
    assert await output.importer.import_due() == 1
    await output.handle(PAGE_REVIEWED, work(revision=2, price="9.90"), job_id)  # the person fixed one price
    delivered = await announced(output, job_id, SKU_DELIVERED)
    assert [(d.revision, d.sku.sku_id[-3:], d.sku.attributes.price) for d in delivered] == [
        (1, "001", None), (1, "002", None), (2, "001", "9.90")]
    [superseded] = await announced(output, job_id, SKU_SUPERSEDED)
    assert (superseded.sku_id[-3:], superseded.revision, superseded.superseded_by) == ("001", 1, 2)
    assert await output.importer.import_due() == 1
    assert sorted(key.split("/", 2)[2] for key in output.receiver.skus) == [
        f"r1/{HASH[:8]}_p01_001", f"r1/{HASH[:8]}_p01_002", f"r2/{HASH[:8]}_p01_001"]
    assert await sku_statuses(output, job_id) == [(1, "SUPERSEDED"), (1, "IMPORTED"), (2, "IMPORTED")]
    await output.handle(PAGE_REVIEWED, work(revision=3, price="9.90"), job_id)  # a redo that changes nothing
    assert len(await announced(output, job_id, SKU_DELIVERED)) == 3
    assert len(await announced(output, job_id, SKU_SUPERSEDED)) == 1


async def test_a_cancelled_jobs_imports_are_skipped_and_not_sent(output):
    job_id = f"job-{uuid.uuid4().hex[:8]}"
    await output.handle(PAGE_BOUND, work(), job_id)
    await output.handle(JOB_CANCELLED, JobCancelled(cancelled_by="user-1"), job_id)
    assert [r.status for r in await import_rows(output, job_id)] == ["SKIPPED"]
    assert await output.importer.import_due() == 0
    assert output.receiver.calls == {}


def with_photo(page: PageBound) -> PageBound:
    """The page with a product photo bound to its first SKU."""
    first = page.result.skus[0].sku_id
    binding = BindingRecord(sku_id=first, image_id=PHOTO.image_id, confidence=0.9, method="grid_alignment")
    return page.model_copy(update={"result": page.result.model_copy(update={"images": [PHOTO],
                                                                            "bindings": [binding]})})


def opens(link: ImageLink, uri: str) -> bool:
    """The link is one the gateway's files endpoint serves ``uri`` for, until the link's expiry."""
    address = urlsplit(link.url)
    query = {name: values[0] for name, values in parse_qs(address.query).items()}
    check_signature(query["uri"], int(query["expires"]), query["signature"], SECRET)
    return (f"{address.scheme}://{address.netloc}{address.path}", query["uri"], int(query["expires"])) == (
        f"http://127.0.0.1:8000{FILES_PATH}", uri, int(link.expires_at.timestamp()))


@pytest.mark.parametrize("output", [("ok",)], indirect=True)
async def test_images_go_out_as_signed_links_in_sku_delivered_and_an_import_body_valid_for_its_schema(output):
    job_id = f"job-{uuid.uuid4().hex[:8]}"
    await output.handle(PAGE_BOUND, with_photo(work()), job_id)
    first, second = await announced(output, job_id, SKU_DELIVERED)
    [link] = first.image_links
    assert link.image_id == PHOTO.image_id and opens(link, PHOTO.source_uri) and second.image_links == []
    assert 6.9 < (link.expires_at - datetime.now(link.expires_at.tzinfo)).total_seconds() / 86400 <= 7
    assert await output.importer.import_due() == 1
    [body] = output.receiver.bodies
    jsonschema_rs.validate(json.loads(IMPORT_SCHEMA.read_text()), body)  # raises, naming the field
    [image] = body["skus"][0]["images"]
    assert (image["role"], image["short_edge"]) == ("PRODUCT_MAIN", 640)
    assert opens(ImageLink.model_validate(image), PHOTO.source_uri)
