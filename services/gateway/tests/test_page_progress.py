"""The gateway's page read model on the real Postgres: a page's reading, a failure reported after it
was read, a page that never was, the timeline events each one adds, a job.completed heard
before the pages it reports on, and the API that reads it answering as its OpenAPI examples say:
the event stream's end, a job's times, a refusal's facts and what a cancelled job delivered."""

import asyncio
import json
import time
import uuid
from datetime import datetime, timedelta
from types import SimpleNamespace

import httpx
import pytest
import sqlalchemy as sa
from prometheus_client import REGISTRY

from skuflow_contracts.codec import envelope_for
from skuflow_contracts.evaluation import EvaluationReport
from skuflow_contracts.events import (
    AdaptedFrom,
    JobCancelConfirmed,
    JobCompleted,
    JobFailed,
    JobRouted,
    PageBound,
    PageFailed,
    PageImported,
    PageParsed,
    PageReviewed,
)
from skuflow_contracts.results import JobSummary, PageResult, ResultDocument, SkuAttributes, SkuRecord
from skuflow_contracts.revisions import machine_revision, review_revision
from skuflow_gateway import completion, lifecycle
from skuflow_gateway.service import definition, subscriptions
from skuflow_gateway.tables import job_events, job_pages, jobs
from skuflow_platform.auth import mint_token
from skuflow_platform.consumer import run_handler
from skuflow_platform.db import Database, migrate
from skuflow_platform.runtime import build_app
from skuflow_platform.settings import PlatformSettings
from tests.api_examples import example_checks

HASH = "7a" * 32
SECRET = "gateway-read-model-test-secret-long-enough-for-hs256"


def bound(page: int) -> PageBound:
    sku = SkuRecord(sku_id=f"{HASH[:8]}_p{page:02d}_001", validity="valid", attributes=SkuAttributes(model="AB-1"),
                    source_bbox=(0, 0, 1, 1), confidence=0.9)
    result = PageResult(page=page, status="AI_COMPLETED", page_type="A", layout="L1", needs_review=False,
                        parser_backend="pymupdf", extraction_method="table_rule", skus=[sku])
    return PageBound(page=page, total_pages=2, file_hash=HASH, route="AUTO", config_version="v1",
                     ir_uri="local://ir.json", result=result)


async def deliver(db: Database, job_id: str, payload) -> None:
    handlers = {topic.name: handler for topic, handler in subscriptions(None)}
    spec, envelope = envelope_for(payload, job_id=job_id, merchant_id="m", producer="test")
    async with db.transaction() as conn:
        await run_handler(handlers[spec.topic.name], envelope, conn, definition.tables, "gateway")


async def new_job(database_url: str) -> tuple[Database, str]:
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    db = Database(database_url)
    job_id = f"pp-{uuid.uuid4().hex[:8]}"
    async with db.transaction() as conn:
        await lifecycle.create_job(conn, job_id, merchant_id="m", uploaded_by="u", filename="c.pdf", file_hash=HASH,
                                   file_uri="local://c.pdf", size_bytes=10)
    return db, job_id


async def timeline_of(db: Database, job_id: str) -> list[tuple[str, object, object]]:
    async with db.transaction() as conn:
        events = (await conn.execute(sa.select(job_events.c.kind, job_events.c.data).where(
            job_events.c.job_id == job_id).order_by(job_events.c.seq))).all()
    return [(e.kind, e.data.get("page_no"), e.data.get("status")) for e in events]


async def job_status(db: Database, job_id: str) -> str:
    async with db.transaction() as conn:
        return (await conn.execute(sa.select(jobs.c.status).where(jobs.c.job_id == job_id))).scalar_one()


DONE = JobCompleted(status="FULL_IMPORTED", result_uri="local://r.json", sku_count=2, total_pages=2)


async def test_a_completion_heard_before_the_last_page_waits_for_it(database_url):
    db, job_id = await new_job(database_url)
    await deliver(db, job_id, bound(1))
    await deliver(db, job_id, DONE)
    assert await job_status(db, job_id) == "EVALUATING"  # held: page 2's reading is not here yet
    await deliver(db, job_id, bound(2))
    status, events = await job_status(db, job_id), await timeline_of(db, job_id)
    await db.close()
    assert status == "FULL_IMPORTED"
    assert events[2:6] == [("page_started", 1, None), ("page_completed", 1, "AI_COMPLETED"),  # read before
                           ("page_started", 2, None), ("page_completed", 2, "AI_COMPLETED")]  # its start was heard
    assert events[-2:] == [("status", None, "FULL_IMPORTED"), ("job_completed", None, "FULL_IMPORTED")]


async def test_a_held_completion_whose_page_never_comes_is_applied_after_the_grace(database_url):
    db, job_id = await new_job(database_url)
    await deliver(db, job_id, bound(1))
    await deliver(db, job_id, DONE)
    ctx = SimpleNamespace(db=db)
    assert await completion.apply_overdue(ctx, grace_seconds=3600) == 0
    assert await job_status(db, job_id) == "EVALUATING"
    assert await completion.apply_overdue(ctx, grace_seconds=0) >= 1
    status, events = await job_status(db, job_id), await timeline_of(db, job_id)
    await db.close()
    assert status == "FULL_IMPORTED" and events[-1] == ("job_completed", None, "FULL_IMPORTED")


async def test_a_failure_reported_after_a_page_was_read_does_not_undo_its_reading(database_url):
    db, job_id = await new_job(database_url)
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
    assert [e.seq for e in events] == [1, 2, 3, 4, 5, 6]  # upload, evaluation, page 1 read, page 2 failed
    assert [(e.kind, e.data.get("page_no"), e.data.get("status")) for e in events[2:]] == [
        ("page_started", 1, None), ("page_completed", 1, "AI_COMPLETED"),
        ("page_started", 2, None), ("page_completed", 2, "DEAD_LETTER")]  # each start reported, once


async def test_a_page_parsed_waiting_for_the_job_lock_sees_the_reading_its_holder_wrote(database_url):
    """page.parsed and page.bound come on two topics to two consumers: when page.parsed waits for the
    job's lock while page.bound's transaction writes the reading, it must find the page read and change
    nothing (it once read the page in the statement that waited, saw it unread, and set it back in
    progress, so the job's completion waited for the overdue sweep)."""
    db, job_id = await new_job(database_url)
    holder = await db.engine.connect()
    transaction = await holder.begin()
    await holder.execute(sa.select(jobs.c.job_id).where(jobs.c.job_id == job_id).with_for_update())
    parsed = asyncio.create_task(deliver(db, job_id, PageParsed(
        page=1, total_pages=2, file_hash=HASH, route="AUTO", config_version="v1", ir_uri="local://ir.json",
        parser_backend="pymupdf")))
    await asyncio.sleep(0.5)  # page.parsed is now waiting for the lock
    assert not parsed.done()
    await holder.execute(job_pages.insert().values(job_id=job_id, page=1, status="AI_COMPLETED"))
    await transaction.commit()
    await holder.close()
    await asyncio.wait_for(parsed, timeout=10)
    async with db.transaction() as conn:
        status = (await conn.execute(sa.select(job_pages.c.status).where(
            job_pages.c.job_id == job_id, job_pages.c.page == 1))).scalar_one()
    events = await timeline_of(db, job_id)
    await db.close()
    assert status == "AI_COMPLETED" and ("page_started", 1, None) not in events


def event_fields(stream: str) -> dict[str, set[str]]:
    """The data fields of each kind of event in a Server-Sent Events stream."""
    found = {}
    for frame in stream.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in frame.splitlines() if line.startswith(("event:", "data:")))
        if "event" in lines:
            found[lines["event"]] = set(json.loads(lines["data"]))
    return found


async def test_the_api_reads_a_job_with_the_fields_its_openapi_examples_document(database_url, tmp_path):
    """The client's example checks compare each JSON answer with its example; the stream is compared here."""
    db, job_id = await new_job(database_url)
    report = EvaluationReport(route="AUTO", c_doc=0.93, route_reason="C_doc=0.93, A=0.80, B=0.40 → AUTO")
    await deliver(db, job_id, JobRouted(route="AUTO", c_doc=0.93, evaluation=report, file_uri="local://c.pdf",
                                        file_hash=HASH, config_version="v1"))
    for page in (1, 2):
        await deliver(db, job_id, PageParsed(page=page, total_pages=2, file_hash=HASH, route="AUTO",
                                             config_version="v1", ir_uri="local://ir.json", parser_backend="pymupdf"))
        await deliver(db, job_id, bound(page))
    await deliver(db, job_id, DONE)
    await db.close()
    app = build_app(definition, PlatformSettings(database_url=database_url, storage_root=tmp_path, jwt_secret=SECRET))
    spec = app.openapi()
    owner = {"Authorization": f"Bearer {mint_token(user_id='u', merchant_id='m', secret=SECRET)}"}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw", headers=owner,
                                 event_hooks=example_checks(spec)) as client:
        for path in ("", "/progress", "/pages", "/pages/1", "/skus", "/evaluation"):
            assert (await client.get(f"/api/v1/jobs/{job_id}{path}")).status_code == 200, path
        assert (await client.get("/api/v1/jobs")).json()[0]["job_id"] == job_id
        stream = (await client.get(f"/api/v1/jobs/{job_id}/events")).text
    await app.state.ctx.db.close()
    example = spec["paths"]["/api/v1/jobs/{job_id}/events"]["get"]["responses"]["200"]["content"][
        "text/event-stream"]["example"]
    documented, real = event_fields(example), event_fields(stream)
    assert set(documented) <= set(real)  # status, page_started, page_completed, job_completed
    assert {kind: real[kind] for kind in documented} == documented


def event_frames(stream: str) -> list[str]:
    return [frame for frame in stream.split("\n\n") if "event: " in frame]


def api_client(app) -> httpx.AsyncClient:
    owner = {"Authorization": f"Bearer {mint_token(user_id='u', merchant_id='m', secret=SECRET)}"}
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw", headers=owner,
                             event_hooks=example_checks(app.openapi()))


@pytest.mark.parametrize("route, verdict", [("AUTO", "PARTIAL_IMPORTED"), ("HUMAN_ALL", "DEGRADED_HUMAN")])
async def test_the_event_stream_ends_with_job_completed_when_the_job_waits_for_people(database_url, tmp_path,
                                                                                     route, verdict):
    """Completed is completed: a job whose pages wait for reviews is done for its stream (it once ran
    on for SKUFLOW_SSE_MAX_SECONDS, 300 s)."""
    db, job_id = await new_job(database_url)
    await deliver(db, job_id, JobRouted(route=route, degrade_reason="low_score" if route == "HUMAN_ALL" else None,
                                        file_uri="local://c.pdf", file_hash=HASH, config_version="v1"))
    for page in (1, 2):
        await deliver(db, job_id, bound(page))
    await deliver(db, job_id, JobCompleted(status=verdict, result_uri="local://r.json", sku_count=2, total_pages=2))
    await db.close()
    app = build_app(definition, PlatformSettings(database_url=database_url, storage_root=tmp_path, jwt_secret=SECRET))
    async with api_client(app) as client:
        started = time.monotonic()
        stream = await asyncio.wait_for(client.get(f"/api/v1/jobs/{job_id}/events"), timeout=10)
        took = time.monotonic() - started
        again = await asyncio.wait_for(client.get(f"/api/v1/jobs/{job_id}/events?after=999"), timeout=10)
    await app.state.ctx.db.close()
    frames = event_frames(stream.text)
    assert "event: job_completed" in frames[-1] and f'"status": "{verdict}"' in frames[-1]
    assert took < 5 and "event: " not in again.text  # a reconnect after the end ends at once


def utc(stamp: str | None) -> datetime | None:
    """An ISO 8601 time in UTC, parsed; None stays None."""
    if stamp is None:
        return None
    at = datetime.fromisoformat(stamp)
    assert at.utcoffset() == timedelta(0), stamp
    return at


async def job_times(client: httpx.AsyncClient, job_id: str) -> tuple[dict, dict]:
    """The job's created_at, updated_at and completed_at in its detail and in the list."""
    detail = (await client.get(f"/api/v1/jobs/{job_id}")).json()
    [listed] = [job for job in (await client.get("/api/v1/jobs")).json() if job["job_id"] == job_id]
    names = ("created_at", "updated_at", "completed_at")
    return {name: utc(detail[name]) for name in names}, {name: utc(listed[name]) for name in names}


async def test_a_job_says_when_it_was_created_last_changed_and_completed(database_url, tmp_path):
    db, job_id = await new_job(database_url)
    await deliver(db, job_id, JobRouted(route="AUTO", file_uri="local://c.pdf", file_hash=HASH, config_version="v1"))
    app = build_app(definition, PlatformSettings(database_url=database_url, storage_root=tmp_path, jwt_secret=SECRET))
    async with api_client(app) as client:
        running, listed = await job_times(client, job_id)
        assert running == listed and running["completed_at"] is None
        assert running["created_at"] <= running["updated_at"]
        await deliver(db, job_id, bound(1))
        read, _ = await job_times(client, job_id)
        assert read["updated_at"] > running["updated_at"] and read["completed_at"] is None  # a page was read
        await deliver(db, job_id, bound(2))
        await deliver(db, job_id, DONE)
        done, listed = await job_times(client, job_id)
    await app.state.ctx.db.close()
    await db.close()
    assert done == listed and done["created_at"] == running["created_at"]
    assert read["updated_at"] < done["completed_at"] <= done["updated_at"]


async def test_a_document_over_the_page_limit_is_refused_saying_the_limit_and_its_page_count(database_url, tmp_path):
    db, job_id = await new_job(database_url)
    await deliver(db, job_id, JobRouted(route="AUTO", file_uri="local://c.pdf", file_hash=HASH, config_version="v1"))
    await deliver(db, job_id, JobFailed(stage="parser", reason="page_count_exceeded",
                                        message="the PDF has 2412 pages (limit 2000)"))
    await db.close()
    app = build_app(definition, PlatformSettings(database_url=database_url, storage_root=tmp_path, jwt_secret=SECRET))
    async with api_client(app) as client:
        job = (await client.get(f"/api/v1/jobs/{job_id}")).json()
        evaluation = (await client.get(f"/api/v1/jobs/{job_id}/evaluation")).json()
    await app.state.ctx.db.close()
    assert job["error_message"] == "The PDF has 2412 pages (limit 2000); please split it and upload the parts"
    assert "2412 pages (limit 2000)" in evaluation["route_reason"]
    assert (job["status"], job["user_status"]) == ("REJECTED", "failed") and job["completed_at"] is not None


async def test_a_cancelled_job_says_so_and_shows_only_what_it_delivered(database_url, tmp_path, monkeypatch):
    """Both pages were read, but only page 1 went downstream before the cancel stopped delivery: the
    output service's result of what was delivered, marked CANCELLED, is what the job shows."""
    monkeypatch.setenv("SKUFLOW_CANCEL_WAIT_SECONDS", "0.2")
    db, job_id = await new_job(database_url)
    await deliver(db, job_id, JobRouted(route="AUTO", file_uri="local://c.pdf", file_hash=HASH, config_version="v1"))
    for page in (1, 2):
        await deliver(db, job_id, bound(page))
    app = build_app(definition, PlatformSettings(database_url=database_url, storage_root=tmp_path, jwt_secret=SECRET))
    async with api_client(app) as client:
        assert (await client.post(f"/api/v1/jobs/{job_id}/cancel")).status_code == 202  # not confirmed yet
        stopping = (await client.get(f"/api/v1/jobs/{job_id}")).json()
        assert (stopping["user_status"], stopping["error_message"]) == ("cancelled", None)
        assert (await client.get(f"/api/v1/jobs/{job_id}/skus")).status_code == 409  # not known yet
        summary = JobSummary(job_id=job_id, file_hash=HASH, route="AUTO", status="CANCELLED", total_pages=2,
                             config_version="v1")
        partial = ResultDocument(job=summary, pages=[bound(1).result])
        result_uri = app.state.ctx.storage.put(f"results/{job_id}/result.json", partial.model_dump_json().encode())
        await deliver(db, job_id, JobCancelConfirmed(delivered_skus=1, result_uri=result_uri))
        job = (await client.get(f"/api/v1/jobs/{job_id}")).json()
        skus = (await client.get(f"/api/v1/jobs/{job_id}/skus")).json()
        result = await client.get(f"/api/v1/jobs/{job_id}/result")
        stream = await asyncio.wait_for(client.get(f"/api/v1/jobs/{job_id}/events"), timeout=10)
    await app.state.ctx.db.close()
    await db.close()
    assert (job["status"], job["user_status"], job["error_message"]) == ("CANCELLED", "cancelled", None)
    assert job["action_hint"] == "cancelled by the user after 1 SKU was delivered; that result is downloadable"
    assert (job["sku_count"], job["result_available"], job["completed_pages"]) == (1, True, 2)
    assert (skus["total"], [sku["sku_id"] for sku in skus["skus"]]) == (1, [f"{HASH[:8]}_p01_001"])
    assert result.status_code == 200 and result.json()["job"]["status"] == "CANCELLED"
    assert [page["page"] for page in result.json()["pages"]] == [1]
    assert "event: job_cancelled" in event_frames(stream.text)[-1]


def reading_of(page: int, reading: int, price: str, needs_review: bool) -> PageBound:
    """The machine's ``reading``-th reading of the page within generation 0 (1 and up: re-reads after a
    person corrected a page of the same layout)."""
    first = bound(page)
    [sku] = first.result.skus
    result = first.result.model_copy(update={
        "status": "HUMAN_QUEUED" if needs_review else "AI_COMPLETED", "needs_review": needs_review,
        "skus": [sku.model_copy(update={"attributes": SkuAttributes(model="AB-1", price=price)})]})
    learned = AdaptedFrom(job_id="j", page=1) if reading else None
    return first.model_copy(update={"reading": reading, "adapted_from": learned, "result": result})


async def page_row(db: Database, job_id: str, page: int) -> tuple[str, int, str]:
    """The page's status, revision and its SKU's price as the gateway shows them."""
    async with db.transaction() as conn:
        row = (await conn.execute(sa.select(job_pages.c.status, job_pages.c.revision, job_pages.c.result).where(
            job_pages.c.job_id == job_id, job_pages.c.page == page))).one()
    return row.status, row.revision, row.result["skus"][0]["attributes"]["price"]


async def test_a_re_read_replaces_the_machines_earlier_reading_and_a_late_older_one_changes_nothing(database_url):
    db, job_id = await new_job(database_url)
    await deliver(db, job_id, reading_of(2, 0, "9.90", needs_review=True))
    await deliver(db, job_id, reading_of(2, 1, "19.90", needs_review=False))  # left review with the lesson
    after_reread = await page_row(db, job_id, 2)
    await deliver(db, job_id, reading_of(2, 0, "9.90", needs_review=True))  # the first reading, heard late
    await deliver(db, job_id, reading_of(2, 2, "29.90", needs_review=True))  # read again without it (a revert)
    after_revert = await page_row(db, job_id, 2)
    events = await timeline_of(db, job_id)
    await db.close()
    assert after_reread == ("AI_COMPLETED", machine_revision(0, reading=1), "19.90")
    assert after_revert == ("HUMAN_QUEUED", machine_revision(0, reading=2), "29.90")
    assert [status for kind, _, status in events if kind == "page_completed"] == [
        "HUMAN_QUEUED", "AI_COMPLETED", "HUMAN_QUEUED"]


async def test_a_persons_review_outranks_every_re_read_and_the_import_notices_of_the_readings_it_replaced(
        database_url):
    db, job_id = await new_job(database_url)
    await deliver(db, job_id, reading_of(1, 0, "9.90", needs_review=True))
    await deliver(db, job_id, reading_of(1, 1, "19.90", needs_review=False))
    corrected = reading_of(1, 0, "12.00", needs_review=False)
    person = corrected.result.model_copy(update={"status": "HUMAN_COMPLETED"})
    await deliver(db, job_id, corrected.advance(PageReviewed, task_id="t1", result=person,
                                                revision=review_revision(0, 0)))
    await deliver(db, job_id, PageImported(page=1, revision=machine_revision(0, reading=1), status="IMPORT_FAILED",
                                           sku_count=1, attempts=1, error="HTTP 500"))  # the re-read's, late
    refused = REGISTRY.get_sample_value("invariant_violation_total", {"invariant_id": "INV-07"}) or 0.0
    await deliver(db, job_id, reading_of(1, 2, "29.90", needs_review=False))  # a re-read after the review
    assert REGISTRY.get_sample_value("invariant_violation_total", {"invariant_id": "INV-07"}) == refused + 1
    row = await page_row(db, job_id, 1)
    async with db.transaction() as conn:
        import_status = (await conn.execute(sa.select(job_pages.c.import_status).where(
            job_pages.c.job_id == job_id, job_pages.c.page == 1))).scalar_one()
    await db.close()
    assert row == ("HUMAN_COMPLETED", review_revision(0, 0), "12.00")  # numbered below the re-read, it stands
    assert import_status is None
