"""The gateway's ops back office on the real Postgres: the dashboard, stuck pages, batch retry with
each job answering on its own, and the profile audit log, all confined to the caller's merchant."""

import asyncio
import uuid

import httpx
import pytest
import sqlalchemy as sa

from skuflow_contracts.codec import decode
from skuflow_contracts.topics import PAGE_PARSE_REQUESTED
from skuflow_gateway.service import definition
from skuflow_gateway.tables import job_pages, jobs
from skuflow_platform.auth import mint_token
from skuflow_platform.db import migrate
from skuflow_platform.runtime import build_app
from skuflow_platform.settings import PlatformSettings
from tests.api_examples import example_checks

SECRET = "gateway-ops-test-secret-long-enough-for-hs256"
PDF = b"%PDF-1.7\n" + b"1 0 obj << >> endobj\n" * 50


def bearer(merchant: str, *roles: str) -> dict:
    return {"Authorization": f"Bearer {mint_token(user_id='o', merchant_id=merchant, secret=SECRET, roles=roles)}"}


@pytest.fixture
async def gateway(database_url, tmp_path):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    app = build_app(definition, PlatformSettings(database_url=database_url, storage_root=tmp_path, jwt_secret=SECRET))
    merchant = f"m-{uuid.uuid4().hex[:8]}"
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw",
                                 event_hooks=example_checks(app.openapi())) as client:
        yield client, merchant, app.state.ctx
    await app.state.ctx.db.close()


async def job_with_pages(client, ctx, merchant: str, status: str, pages: dict[int, tuple[str, int]]) -> str:
    """A job in ``status`` whose pages are {page: (status, minutes since it last moved)}."""
    job_id = (await client.post("/api/v1/jobs", headers=bearer(merchant, "uploader"),
                                files={"file": ("c.pdf", PDF, "application/pdf")})).json()["job_id"]
    async with ctx.db.transaction() as conn:
        await conn.execute(jobs.update().where(jobs.c.job_id == job_id).values(
            status=status, total_pages=len(pages), route="AUTO", sku_count=3))
        for page, (page_status, minutes) in pages.items():
            await conn.execute(job_pages.insert().values(
                job_id=job_id, page=page, status=page_status,
                updated_at=sa.func.now() - sa.func.make_interval(0, 0, 0, 0, 0, minutes)))
    return job_id


async def test_dashboard_stuck_pages_and_batch_retry(gateway):
    client, merchant, ctx = gateway
    ops = bearer(merchant, "ops")
    failed = await job_with_pages(client, ctx, merchant, "PARTIAL_FAILED",
                                  {1: ("AI_COMPLETED", 1), 2: ("DEAD_LETTER", 1)})
    stuck = await job_with_pages(client, ctx, merchant, "PROCESSING",
                                 {1: ("AI_PROCESSING", 45), 2: ("HUMAN_QUEUED", 1)})
    other = await job_with_pages(client, ctx, f"{merchant}-other", "PARTIAL_FAILED", {1: ("DEAD_LETTER", 1)})

    board = (await client.get("/api/v1/ops/dashboard", headers=ops)).json()
    assert board["today"] == {"uploads": 2, "skus": 6}
    assert board["jobs_by_status"] == {"PARTIAL_FAILED": 1, "PROCESSING": 1}
    assert board["pages_of_active_jobs"] == {"ai_completed": 1, "dead_letter": 1, "ai_processing": 1,
                                             "human_queued": 1}
    assert board["waiting_for_people"] == 1

    found = (await client.get("/api/v1/ops/pages/stuck", headers=ops, params={"minutes": 30})).json()["pages"]
    assert [(p["job_id"], p["page"]) for p in found] == [(stuck, 1)] and found[0]["idle_seconds"] >= 45 * 60

    retried = (await client.post("/api/v1/ops/jobs/batch-retry", headers=ops,
                                 json={"job_ids": [failed, stuck, other]})).json()["jobs"]
    assert retried[failed] == {"retried_pages": [2]}
    assert retried[stuck]["refused"] == 409 and retried[other]["refused"] == 404
    assert (await client.get("/api/v1/ops/dashboard", headers=bearer(merchant, "uploader"))).status_code == 403


async def test_the_config_audit_log_lists_this_merchants_profile_changes_newest_first(gateway):
    client, merchant, _ = gateway
    admin = bearer(merchant, "admin")
    await client.post("/api/v1/config/profiles", headers=admin, json={"profile_id": "shoes"})
    await client.put("/api/v1/config/profiles/shoes", headers=admin, json={
        "expected_version": "v1", "settings": {"binding": {"ambiguity_gap": 0.3}}})  # a change: a new version
    await client.post("/api/v1/config/profiles", headers=bearer(f"{merchant}-other", "admin"),
                      json={"profile_id": "hats"})
    log = (await client.get("/api/v1/ops/config/audit-log", headers=admin)).json()["changes"]
    assert [(c["profile_id"], c["action"], c["to_version"]) for c in log] == [("shoes", "update", "v2"),
                                                                            ("shoes", "create", "v1")]


async def test_the_audit_log_keeps_to_its_merchant_when_another_merchants_id_extends_it(gateway):
    """Audit rows are keyed 'merchant:profile' and a merchant id may hold a ':' (a profile id may not), or a
    LIKE wildcard: merchant 'm_1' must read neither 'm_1:eu's changes, whose rows start with 'm_1:', nor
    'mx1's, which 'm_1:' matches where '_' is a wildcard."""
    client, merchant, _ = gateway
    mine = f"{merchant}_1"
    for other, profile in ((f"{mine}:eu", "hats"), (f"{merchant}x1", "caps")):
        await client.post("/api/v1/config/profiles", headers=bearer(other, "admin"), json={"profile_id": profile})
    assert (await client.get("/api/v1/ops/config/audit-log", headers=bearer(mine, "admin"))).json()["changes"] == []
    theirs = (await client.get("/api/v1/ops/config/audit-log", headers=bearer(f"{mine}:eu", "admin"))).json()
    assert [(c["profile_id"], c["action"]) for c in theirs["changes"]] == [("hats", "create")]


async def test_a_page_retried_after_a_full_reprocess_is_read_as_a_reading_of_the_new_generation(gateway):
    """A retry asks for the same generation the job is in: an older one would be ignored everywhere."""
    client, merchant, ctx = gateway
    job_id = await job_with_pages(client, ctx, merchant, "PARTIAL_FAILED", {1: ("AI_COMPLETED", 1),
                                                                            2: ("DEAD_LETTER", 1)})
    async with ctx.db.transaction() as conn:
        await conn.execute(jobs.update().where(jobs.c.job_id == job_id).values(
            generation=1, config_version="v1", warnings=["repaired"]))
    retried = await client.post(f"/api/v1/jobs/{job_id}/pages/2/retry", headers=bearer(merchant, "uploader"))
    assert retried.status_code == 200, retried.text
    async with ctx.db.transaction() as conn:
        rows = (await conn.execute(sa.select(ctx.tables.outbox.c.topic, ctx.tables.outbox.c.body).where(
            ctx.tables.outbox.c.topic == PAGE_PARSE_REQUESTED.name,
            ctx.tables.outbox.c.message_key == f"{job_id}/2"))).all()
    [request] = [decode(row.topic, row.body).payload for row in rows]
    assert (request.page, request.generation, request.document_warnings) == (2, 1, ["repaired"])


async def test_an_uploader_reads_a_pages_review_reasons_in_words_with_their_codes(gateway):
    client, merchant, ctx = gateway
    job_id = await job_with_pages(client, ctx, merchant, "PARTIAL_IMPORTED", {1: ("HUMAN_QUEUED", 1)})
    async with ctx.db.transaction() as conn:
        await conn.execute(job_pages.update().where(job_pages.c.job_id == job_id).values(result={
            "page": 1, "needs_review": True, "review_reasons": ["unread_codes:107", "unread_prices:11"], "skus": []}))
    uploader = bearer(merchant, "uploader")
    [listed] = (await client.get(f"/api/v1/jobs/{job_id}/pages", headers=uploader)).json()["pages"]
    page = (await client.get(f"/api/v1/jobs/{job_id}/pages/1", headers=uploader)).json()
    assert listed["review_reasons"] == ["unread_codes:107", "unread_prices:11"]  # as before
    assert listed["reasons"] == page["reasons"] == [
        {"code": "unread_codes", "detail": "107", "en": "107 product codes could not be read",
         "zh": "107 个产品编码无法识别"},
        {"code": "unread_prices", "detail": "11", "en": "11 prices unreadable", "zh": "11 个价格无法识别"}]


async def test_the_ops_page_sees_jobs_in_flight_and_dead_letters_for_operators_and_team_leads_only(gateway):
    client, merchant, ctx = gateway
    running = await job_with_pages(client, ctx, merchant, "PROCESSING", {1: ("AI_PROCESSING", 5),
                                                                         2: ("HUMAN_QUEUED", 1)})
    failed = await job_with_pages(client, ctx, merchant, "PARTIAL_FAILED", {1: ("AI_COMPLETED", 1),
                                                                            2: ("DEAD_LETTER", 1)})
    await job_with_pages(client, ctx, merchant, "FULL_IMPORTED", {1: ("AI_COMPLETED", 1)})
    for role in ("ops", "team_lead", "admin"):
        seen = await client.get("/api/v1/ops/in-flight", headers=bearer(merchant, role))
        assert seen.status_code == 200, role
    flying = seen.json()
    assert [(j["job_id"], j["pages"], j["waiting_for_people"]) for j in flying["jobs"]] == [
        (running, {"ai_processing": 1, "human_queued": 1}, 1), (failed, {"ai_completed": 1, "dead_letter": 1}, 0)]
    assert flying["dead_letters"] == {"pages": 1, "jobs": [{"job_id": failed, "filename": "c.pdf", "pages": [2]}]}
    for role in ("uploader", "annotator"):
        assert (await client.get("/api/v1/ops/in-flight", headers=bearer(merchant, role))).status_code == 403
    elsewhere = (await client.get("/api/v1/ops/in-flight", headers=bearer("m-nobody", "ops"))).json()  # no jobs
    assert elsewhere == {"jobs": [], "dead_letters": {"pages": 0, "jobs": []}}
