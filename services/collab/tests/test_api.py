"""The task API in-process on the real Postgres: locking races, lock expiry, SLA on two replicas,
corrections published as page.reviewed, revert rights, skip, merchant isolation."""

import asyncio
import re
from datetime import UTC, datetime, timedelta

import httpx
import pymupdf
import pytest
import sqlalchemy as sa

from skuflow_collab.service import definition, subscriptions
from skuflow_collab.tables import annotations, human_tasks
from skuflow_collab.timers import escalate, expire_locks
from skuflow_contracts.codec import decode, envelope_for
from skuflow_contracts.events import AdaptedFrom, PageBound
from skuflow_contracts.ir import ParsedPage, TextBlock, TextLine, TextSpan
from skuflow_contracts.results import BindingCandidate, BindingRecord, ImageRecord, PageResult, SkuRecord
from skuflow_contracts.revisions import machine_revision, review_revision
from skuflow_platform.auth import mint_token
from skuflow_platform.consumer import run_handler
from skuflow_platform.db import migrate
from skuflow_platform.runtime import build_app
from skuflow_platform.settings import PlatformSettings
from tests.api_examples import example_checks

SECRET = "collab-api-test-secret-long-enough-for-hs256"
HASH = "ab" * 32


def token(user: str, merchant: str = "m1", roles=("annotator",)) -> dict:
    return {"Authorization": f"Bearer {mint_token(user_id=user, merchant_id=merchant, secret=SECRET, roles=roles)}"}


def named(user: str, name: str, roles=("annotator",)) -> dict:
    """Headers of a login as the gateway makes it: an opaque user id and the username."""
    bearer = mint_token(user_id=user, merchant_id="m1", secret=SECRET, roles=roles, name=name)
    return {"Authorization": f"Bearer {bearer}"}


ANN, BOB, LEAD, OTHER = token("ann"), token("bob"), token("lea", roles=("team_lead",)), token("eve", merchant="m2")


def page_result(page: int, price: str = "9.90", confidence: float = 0.55) -> PageResult:
    sku = SkuRecord(sku_id=f"{HASH[:8]}_p{page:02d}_001", validity="valid",
                    attributes={"model": "SF-1", "price": price}, source_bbox=(50, 100, 300, 120),
                    confidence=confidence)
    images = [ImageRecord(image_id=f"img_{n}", bbox=(300, 100 + 50 * n, 350, 140 + 50 * n), role="PRODUCT_MAIN",
                          short_edge=400) for n in (1, 2)]
    binding = BindingRecord(sku_id=sku.sku_id, image_id=None, confidence=0.5, is_ambiguous=True, method="grid",
                            candidates=[BindingCandidate(image_id="img_1", confidence=0.5),
                                        BindingCandidate(image_id="img_2", confidence=0.48)])
    return PageResult(page=page, status="HUMAN_QUEUED", page_type="C", layout="L2", needs_review=True,
                      parser_backend="pymupdf", extraction_method="two_stage", skus=[sku], images=images,
                      bindings=[binding])


@pytest.fixture
async def collab(database_url, tmp_path):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    app = build_app(definition, PlatformSettings(database_url=database_url, storage_root=tmp_path, jwt_secret=SECRET))
    ctx = app.state.ctx
    async with ctx.db.transaction() as conn:
        await conn.execute(sa.text("TRUNCATE collab.human_tasks, collab.annotations, collab.annotation_examples, "
                                   "collab.documents, collab.outbox, collab.state_transitions, "
                                   "collab.processed_events, collab.task_reverts, collab.people"))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://collab",
                                 event_hooks=example_checks(app.openapi())) as client:
        yield client, ctx
    await ctx.db.close()


def bound(page: int = 1, reading: int = 0, layout: str | None = None, needs_review: bool = True,
          **result: object) -> PageBound:
    """The machine's ``reading`` of the page (1 and up: re-reads after page 1's correction taught the
    reader its ``layout``); ``result``: its price and confidence."""
    learned = AdaptedFrom(job_id="job-1", page=1, task_id="t-1") if reading else None
    return PageBound(page=page, total_pages=3, file_hash=HASH, route="AUTO", config_version="v1",
                     ir_uri="local://ir", reading=reading, layout=layout, adapted_from=learned,
                     result=page_result(page, **result).model_copy(update={"needs_review": needs_review}))


async def deliver(ctx, work: PageBound, job: str = "job-1", merchant: str = "m1") -> None:
    _, envelope = envelope_for(work, job_id=job, merchant_id=merchant, producer="test")
    [(_, handler)] = subscriptions(ctx)
    async with ctx.db.transaction() as conn:
        await run_handler(handler, envelope, conn, ctx.tables, "collab")


async def new_task(ctx, job="job-1", page=1, merchant="m1", **reading) -> str:
    """A task made the way the service makes it: from a page.bound event."""
    await deliver(ctx, bound(page, **reading), job, merchant)
    async with ctx.db.transaction() as conn:
        return (await conn.execute(sa.select(human_tasks.c.task_id).where(
            human_tasks.c.job_id == job, human_tasks.c.page == page))).scalar_one()


async def published(ctx, event_type: str) -> list:
    async with ctx.db.transaction() as conn:
        rows = (await conn.execute(sa.select(ctx.tables.outbox.c.topic, ctx.tables.outbox.c.body))).all()
    return [decode(r.topic, r.body) for r in rows if r.topic == f"skuflow.{event_type}.v1"]


async def test_two_annotators_racing_for_one_task_exactly_one_wins(collab):
    client, ctx = collab
    task = await new_task(ctx)
    first, second = await asyncio.gather(client.post(f"/api/v1/tasks/{task}/lock", headers=ANN),
                                         client.post(f"/api/v1/tasks/{task}/lock", headers=BOB))
    assert sorted([first.status_code, second.status_code]) == [200, 409]
    winner = "ann" if first.status_code == 200 else "bob"
    detail = (await client.get(f"/api/v1/tasks/{task}", headers=ANN)).json()
    assert detail["status"] == "PROCESSING" and detail["locked_by"] == winner


async def test_an_expired_lock_returns_the_task_to_the_queue(collab):
    client, ctx = collab
    task = await new_task(ctx)
    assert (await client.post(f"/api/v1/tasks/{task}/lock", headers=ANN)).status_code == 200
    async with ctx.db.transaction() as conn:
        assert await expire_locks(conn, datetime.now(UTC)) == 0
        assert await expire_locks(conn, datetime.now(UTC) + timedelta(minutes=6)) == 1
    detail = (await client.get(f"/api/v1/tasks/{task}", headers=BOB)).json()
    assert (detail["status"], detail["locked_by"]) == ("CREATED", None)
    assert (await client.post(f"/api/v1/tasks/{task}/lock", headers=BOB)).status_code == 200


async def test_the_holder_extends_the_lock_and_releases_the_task_to_the_queue(collab):
    client, ctx = collab
    task = await new_task(ctx)
    locked = (await client.post(f"/api/v1/tasks/{task}/lock", headers=ANN)).json()
    beat = await client.post(f"/api/v1/tasks/{task}/heartbeat", headers=ANN)
    assert beat.status_code == 200
    assert datetime.fromisoformat(beat.json()["lock_expires_at"]) >= datetime.fromisoformat(locked["lock_expires_at"])
    assert (await client.post(f"/api/v1/tasks/{task}/heartbeat", headers=BOB)).status_code == 409
    released = (await client.post(f"/api/v1/tasks/{task}/release", headers=ANN)).json()
    assert (released["status"], released["locked_by"]) == ("CREATED", None)


async def test_the_sla_scanner_on_two_replicas_escalates_each_task_once(collab):
    _, ctx = collab
    tasks = [await new_task(ctx, page=n) for n in (1, 2, 3)]
    later = datetime.now(UTC) + timedelta(minutes=31)  # binding reviews start at HIGH: 30 min → ESCALATED

    async def replica():
        async with ctx.db.transaction() as conn:
            moved = await escalate(conn, later)
            await asyncio.sleep(0.2)  # hold the row locks while the other replica scans
            return moved

    assert sum(await asyncio.gather(replica(), replica())) == 3
    async with ctx.db.transaction() as conn:
        rows = (await conn.execute(sa.select(human_tasks.c.status, human_tasks.c.sla_level))).all()
        audit = (await conn.execute(sa.select(sa.func.count()).select_from(ctx.tables.state_transitions).where(
            ctx.tables.state_transitions.c.to_status == "ESCALATED"))).scalar_one()
    assert set(rows) == {("ESCALATED", "CRITICAL")} and audit == len(tasks)


async def test_a_forgotten_task_is_skipped_by_the_sla_and_the_page_is_released(collab):
    _, ctx = collab
    await new_task(ctx)
    async with ctx.db.transaction() as conn:
        await conn.execute(human_tasks.update().values(sla_level="AUTO_RESOLVE"))
        assert await escalate(conn, datetime.now(UTC) + timedelta(minutes=181)) == 1
    [review] = await published(ctx, "page.reviewed")
    assert review.payload.result.status == "SLA_SKIPPED" and review.payload.revision == 2


async def test_completing_with_corrections_writes_annotations_and_publishes_the_review(collab):
    client, ctx = collab
    task = await new_task(ctx)
    detail = (await client.get(f"/api/v1/tasks/{task}", headers=ANN)).json()
    [sku] = detail["result"]["skus"]
    assert [c["image_id"] for c in detail["result"]["bindings"][0]["candidates"]] == ["img_1", "img_2"]
    body = {"edited": [{"sku_id": sku["sku_id"], "attributes": {"price": {"before": "9.90", "after": "12.50"}},
                        "image_id": {"before": None, "after": "img_2"}}],
            "added": [{"attributes": {"model": "SF-2"}, "bbox": [50, 130, 300, 150]}]}
    assert (await client.post(f"/api/v1/tasks/{task}/complete", json=body, headers=ANN)).status_code == 409
    await client.post(f"/api/v1/tasks/{task}/lock", headers=ANN)
    assert (await client.post(f"/api/v1/tasks/{task}/complete", json=body, headers=BOB)).status_code == 409
    bad = {"added": [{"attributes": {"model": "SF-3"}}]}
    assert (await client.post(f"/api/v1/tasks/{task}/complete", json=bad, headers=ANN)).status_code == 422
    stale = {"edited": [{"sku_id": sku["sku_id"], "attributes": {"price": {"before": "1.00", "after": "2.00"}}}]}
    refused = await client.post(f"/api/v1/tasks/{task}/complete", json=stale, headers=ANN)
    assert refused.status_code == 409 and refused.json()["detail"]["error_code"] == "STALE_VALUE"
    assert (await client.get(f"/api/v1/tasks/{task}", headers=ANN)).json()["status"] == "PROCESSING"
    done = await client.post(f"/api/v1/tasks/{task}/complete", json=body, headers=ANN)
    assert done.status_code == 200 and done.json()["status"] == "COMPLETED"
    assert sorted(done.json()["annotations"]) == ["BINDING_CORRECTION", "SKU_ATTRIBUTE_CORRECTION",
                                                  "SKU_ATTRIBUTE_CORRECTION"]
    [review] = await published(ctx, "page.reviewed")
    result = review.payload.result
    assert (review.payload.revision, result.needs_review, result.status) == (2, False, "HUMAN_COMPLETED")
    assert [(s.attributes.model, s.attributes.price) for s in result.skus] == [("SF-1", "12.50"), ("SF-2", None)]
    assert result.bindings[0].image_id == "img_2"
    async with ctx.db.transaction() as conn:
        assert (await conn.execute(sa.select(sa.func.count()).select_from(annotations))).scalar_one() == 3
    again = await client.post(f"/api/v1/tasks/{task}/complete", json=body, headers=ANN)
    assert again.status_code == 409 and again.json()["detail"]["status"] == "COMPLETED"


async def test_only_a_team_lead_reverts_with_a_reason_and_rework_is_counted(collab):
    client, ctx = collab
    task = await new_task(ctx)
    assert (await client.post(f"/api/v1/tasks/{task}/revert", json={"reason": "x"}, headers=LEAD)).json()[
        "detail"]["error_code"] == "TASK_NOT_REVERTABLE"
    await client.post(f"/api/v1/tasks/{task}/lock", headers=ANN)
    skipped = await client.post(f"/api/v1/tasks/{task}/skip", json={"reason": "page is unreadable"}, headers=ANN)
    assert skipped.json()["status"] == "SKIPPED"
    assert (await client.post(f"/api/v1/tasks/{task}/revert", json={"reason": "x"}, headers=ANN)).status_code == 403
    assert (await client.post(f"/api/v1/tasks/{task}/revert", json={}, headers=LEAD)).status_code == 422
    reverted = await client.post(f"/api/v1/tasks/{task}/revert", json={"reason": "it is readable"}, headers=LEAD)
    assert reverted.json()["status"] == "CREATED" and reverted.json()["rework_count"] == 1


async def test_next_gives_the_most_urgent_task_and_nothing_of_another_merchant(collab):
    client, ctx = collab
    assert (await client.get("/api/v1/tasks/next", headers=ANN)).status_code == 204
    await new_task(ctx, job="job-b", merchant="m2")
    mine = await new_task(ctx, job="job-a")
    assert (await client.get("/api/v1/tasks/next", headers=ANN)).json()["task_id"] == mine
    assert (await client.get(f"/api/v1/tasks/{mine}", headers=OTHER)).status_code == 404
    assert (await client.post(f"/api/v1/tasks/{mine}/lock", headers=OTHER)).status_code == 404
    assert [t["job_id"] for t in (await client.get("/api/v1/tasks", headers=OTHER)).json()["tasks"]] == ["job-b"]
    assert (await client.get("/api/v1/tasks", headers=token("up", roles=("uploader",)))).status_code == 403
    assert (await client.get("/api/v1/tasks")).status_code == 401


async def test_the_page_picture_is_rendered_from_the_uploaded_pdf(collab, tmp_path):
    client, ctx = collab
    task = await new_task(ctx, page=2)
    assert (await client.get(f"/api/v1/tasks/{task}/page-image", headers=ANN)).status_code == 404
    doc = pymupdf.open()
    for _ in range(3):
        doc.new_page(width=595, height=842)
    ctx.storage.put("jobs/job-1/source.pdf", doc.tobytes())
    assert (await client.get(f"/api/v1/tasks/{task}", headers=ANN)).json()["text_blocks"] == []  # IR gone
    cells = TextSpan(bbox=(50, 100, 300, 120), text="SF-1 Glass", char_boxes=[(50 + 10 * i, 100, 58 + 10 * i, 120)
                                                                             for i in range(10)])
    ocr_word = TextSpan(bbox=(310, 100, 340, 120), text="9.90")
    glued = TextSpan(bbox=(350, 100, 400, 120), text="苦瓜120", char_boxes=[(350 + 10 * i, 100, 358 + 10 * i, 120)
                                                                          for i in range(5)])
    ctx.storage.put("ir", ParsedPage(page=2, width=595, height=842, parser_backend="pymupdf", text_blocks=[
        TextBlock(block_id=0, bbox=(50, 100, 300, 120), text="SF-1 Glass tumbler", font_size=10,
                  lines=[TextLine(bbox=(50, 100, 340, 120), text="SF-1 Glass 9.90", spans=[cells, ocr_word, glued])],
                  block_type="paragraph")]).model_dump_json().encode())
    detail = (await client.get(f"/api/v1/tasks/{task}", headers=ANN)).json()
    assert detail["text_blocks"] == [{"bbox": [50, 100, 300, 120], "text": "SF-1 Glass tumbler"}]
    # the table tool's material: spans cut at their spaces and where Chinese meets digits, by their
    # characters' boxes; a word without them as it is
    assert detail["words"] == [{"bbox": [50, 100, 88, 120], "text": "SF-1"},
                               {"bbox": [100, 100, 148, 120], "text": "Glass"},
                               {"bbox": [310, 100, 340, 120], "text": "9.90"},
                               {"bbox": [350, 100, 368, 120], "text": "苦瓜"},
                               {"bbox": [370, 100, 398, 120], "text": "120"}]
    assert detail["page_size"] == [595, 842] and detail["context_pages"]["next"].endswith("offset=1")
    picture = await client.get(detail["page_image_url"], headers=ANN)
    assert picture.status_code == 200 and picture.content.startswith(b"\x89PNG")
    sharp = await client.get(detail["page_image_url"], params={"sharp": True}, headers=ANN)  # for zooming in
    assert abs(pymupdf.Pixmap(sharp.content).width - 2 * pymupdf.Pixmap(picture.content).width) <= 1
    thumb = await client.get(detail["context_pages"]["previous"], headers=ANN)
    assert thumb.status_code == 200 and len(thumb.content) < len(picture.content)


async def test_a_new_task_is_dispatched_to_the_best_annotator_and_others_see_it_only_later(collab):
    client, ctx = collab
    first = await new_task(ctx, page=1)
    await client.post(f"/api/v1/tasks/{first}/lock", headers=BOB)
    assert (await client.post(f"/api/v1/tasks/{first}/complete", json={}, headers=BOB)).status_code == 200
    dispatched = await new_task(ctx, page=2)  # bob is the one annotator with a record for m1
    assert (await client.get(f"/api/v1/tasks/{dispatched}", headers=BOB)).json()["status"] == "CREATED"
    assert (await client.get("/api/v1/tasks/next", headers=ANN)).status_code == 204
    assert (await client.get("/api/v1/tasks/next", headers=BOB)).json()["task_id"] == dispatched
    async with ctx.db.transaction() as conn:
        await conn.execute(human_tasks.update().where(human_tasks.c.task_id == dispatched).values(
            sla_level="CRITICAL"))
    assert (await client.get("/api/v1/tasks/next", headers=ANN)).json()["task_id"] == dispatched


async def test_every_task_of_a_document_shows_what_its_first_page_says_of_it(collab):
    client, ctx = collab
    ctx.storage.put("ir", ParsedPage(page=1, width=595, height=842, parser_backend="pymupdf", text_blocks=[
        TextBlock(block_id=0, bbox=(50, 40, 500, 80), text="ACME Kitchen 2026", lines=[], font_size=24,
                  block_type="heading"),
        TextBlock(block_id=1, bbox=(50, 100, 300, 120), text="Brand: ACME", lines=[], font_size=10,
                  block_type="paragraph")]).model_dump_json().encode())
    await new_task(ctx, page=1)
    later = await new_task(ctx, page=3)
    detail = (await client.get(f"/api/v1/tasks/{later}", headers=ANN)).json()
    assert detail["doc_global_attributes"] == {"title": "ACME Kitchen 2026", "brand": "ACME"}


VALID_BODIES = {"complete": {}, "skip": {"reason": "r"}, "revert": {"reason": "r"}}


async def test_every_task_endpoint_refuses_every_wrong_caller(collab, wrong_tokens):
    """Every endpoint of the task API (read from its OpenAPI) × the wrong tokens (401), an uploader
    without an annotator's role (403) and another merchant's task (404)."""
    client, ctx = collab
    task_id = await new_task(ctx)
    uploader = mint_token(user_id="upl", merchant_id="m1", secret=SECRET, roles=("uploader",))
    stranger = mint_token(user_id="eve", merchant_id="m2", secret=SECRET, roles=("team_lead",))
    tokens = {**wrong_tokens(SECRET, "m1"), "wrong role": uploader, "another merchant": stranger}
    wrong = []
    for template, operations in client._transport.app.openapi()["paths"].items():
        for method in operations:
            expected = {name: 401 for name in tokens} | {"wrong role": 403}
            if "{task_id}" in template:
                expected["another merchant"] = 404
            else:
                del expected["another merchant"]
            for case, status in expected.items():
                headers = {"Authorization": f"Bearer {tokens[case]}"} if tokens[case] else {}
                body = VALID_BODIES.get(template.rsplit("/", 1)[-1])  # a valid body: the ownership check is reached
                answer = await client.request(method.upper(), template.replace("{task_id}", task_id), headers=headers,
                                              json=body)
                if answer.status_code != status:
                    wrong.append((method.upper(), template, case, answer.status_code, status))
    assert wrong == []


async def test_a_team_lead_skips_and_reassigns_waiting_tasks_in_batches_each_answering_on_its_own(collab):
    client, ctx = collab
    waiting, other, taken = await new_task(ctx, page=1), await new_task(ctx, page=2), await new_task(ctx, page=3)
    strangers = await new_task(ctx, job="job-2", merchant="m2")
    assert (await client.post(f"/api/v1/tasks/{taken}/lock", headers=ANN)).status_code == 200
    skipped = await client.post("/api/v1/ops/tasks/batch-skip", headers=LEAD, json={
        "task_ids": [waiting, taken, strangers], "reason": "backlog relief"})
    assert skipped.status_code == 200
    outcome = skipped.json()["tasks"]
    assert outcome[waiting] == {"status": "SKIPPED"}
    assert outcome[taken]["refused"] == 409 and outcome[strangers]["refused"] == 404
    reviews = [e.payload for e in await published(ctx, "page.reviewed")]
    assert [(r.page, r.result.status) for r in reviews] == [(1, "HUMAN_SKIPPED")]  # the job is not blocked

    assert (await client.post("/api/v1/ops/tasks/batch-reassign", headers=ANN,
                              json={"task_ids": [other], "to": "bob"})).status_code == 403
    assert (await client.get("/api/v1/tasks/next", headers=OTHER)).status_code in (200, 204)  # eve, at m2's desk
    for stranger in ("bob", "bobb", "eve"):  # not yet at the workbench, a typo, another merchant's annotator
        refused = await client.post("/api/v1/ops/tasks/batch-reassign", headers=LEAD,
                                    json={"task_ids": [other], "to": stranger})
        assert refused.status_code == 404 and "opened the workbench" in refused.json()["detail"]
    assert (await client.post("/api/v1/ops/tasks/batch-reassign", headers=LEAD,  # no id holds a NUL: no lookup
                              json={"task_ids": [other], "to": "b\u0000b"})).status_code == 422
    assert (await client.get("/api/v1/tasks/next", headers=BOB)).json()["task_id"] == other  # bob opens it
    moved = await client.post("/api/v1/ops/tasks/batch-reassign", headers=LEAD, json={"task_ids": [other], "to": "bob"})
    assert moved.json()["tasks"][other] == {"status": "CREATED"}
    assert (await client.get("/api/v1/tasks/next", headers=BOB)).json()["task_id"] == other


async def test_a_team_lead_sees_each_annotators_profile_and_statistics_of_their_merchant_only(collab):
    client, ctx = collab
    first, second, third = [await new_task(ctx, page=page) for page in (1, 2, 3)]
    for task in (first, second):
        await client.post(f"/api/v1/tasks/{task}/lock", headers=ANN)
        assert (await client.post(f"/api/v1/tasks/{task}/complete", json={}, headers=ANN)).status_code == 200
    await client.post(f"/api/v1/tasks/{second}/revert", json={"reason": "a row was missed"}, headers=LEAD)
    await client.post(f"/api/v1/tasks/{second}/lock", headers=ANN)
    await client.post(f"/api/v1/tasks/{second}/complete", json={}, headers=ANN)
    await client.post(f"/api/v1/tasks/{third}/lock", headers=BOB)
    await client.post(f"/api/v1/tasks/{third}/skip", json={"reason": "unreadable"}, headers=BOB)

    team = (await client.get("/api/v1/ops/annotators", headers=LEAD)).json()["annotators"]
    assert {p["annotator"]: (p["total_tasks"], p["accuracy"]) for p in team} == {"ann": (2, 0.5)}  # bob finished none
    stats = (await client.get("/api/v1/ops/annotators/ann/stats", headers=LEAD)).json()
    [(kind, counts)] = stats["by_task_type"].items()
    assert (counts["completed"], counts["reworked"], counts["skipped"]) == (2, 1, 0)
    assert stats["profile"]["accuracy"] == 0.5 and counts["avg_duration_sec"] >= 0
    bob = (await client.get("/api/v1/ops/annotators/bob/stats", headers=LEAD)).json()
    assert bob["by_task_type"][kind]["skipped"] == 1 and bob["profile"]["total_tasks"] == 0
    assert (await client.get("/api/v1/ops/annotators/nobody/stats", headers=LEAD)).status_code == 404
    assert (await client.get("/api/v1/ops/annotators/ann/stats", headers=ANN)).status_code == 403
    stranger = token("eve", merchant="m2", roles=("team_lead",))
    assert (await client.get("/api/v1/ops/annotators", headers=stranger)).json()["annotators"] == []
    assert (await client.get("/api/v1/ops/annotators/ann/stats", headers=stranger)).status_code == 404


async def test_an_annotators_own_locked_task_comes_back_first_and_taking_it_again_renews_the_lock(collab):
    client, ctx = collab
    held = await new_task(ctx, page=2)
    await new_task(ctx, page=1)  # older and as urgent: it would come first for anyone else
    locked = (await client.post(f"/api/v1/tasks/{held}/lock", headers=ANN)).json()
    assert (await client.get("/api/v1/tasks/next", headers=ANN)).json()["task_id"] == held  # a tab closed, a new login
    assert (await client.get("/api/v1/tasks/next", headers=BOB)).json()["task_id"] != held
    await asyncio.sleep(0.01)
    again = (await client.post(f"/api/v1/tasks/{held}/lock", headers=ANN)).json()
    assert again["lock_expires_at"] > locked["lock_expires_at"]


async def test_release_passes_the_task_to_the_others_and_a_closing_tab_frees_it_for_its_holder_too(collab):
    client, ctx = collab
    first, second = await new_task(ctx, page=1), await new_task(ctx, page=2)
    await client.post(f"/api/v1/tasks/{first}/lock", headers=ANN)
    assert (await client.post(f"/api/v1/tasks/{first}/release", headers=ANN)).json()["status"] == "CREATED"
    assert (await client.get("/api/v1/tasks/next", headers=ANN)).json()["task_id"] == second
    assert (await client.get("/api/v1/tasks/next", headers=BOB)).json()["task_id"] == first
    await client.post(f"/api/v1/tasks/{second}/lock", headers=ANN)
    await client.post(f"/api/v1/tasks/{second}/release", headers=ANN)
    assert (await client.get("/api/v1/tasks/next", headers=ANN)).status_code == 204  # both passed on: none now
    async with ctx.db.transaction() as conn:  # the cool-down ends
        await conn.execute(human_tasks.update().values(released_at=sa.func.now() - sa.text("interval '1 hour'")))
    assert (await client.get("/api/v1/tasks/next", headers=ANN)).json()["task_id"] == first

    await client.post(f"/api/v1/tasks/{first}/lock", headers=ANN)
    closed = await client.post(f"/api/v1/tasks/{first}/release", params={"closed": "true"}, headers=ANN)
    assert closed.json()["locked_by"] is None
    assert (await client.get("/api/v1/tasks/next", headers=ANN)).json()["task_id"] == first


async def test_a_rework_goes_to_any_qualified_annotator_from_the_undone_correction_with_who_and_why(collab):
    client, ctx = collab
    task = await new_task(ctx)
    ann, lead = named("ann-id", "ann"), named("lea-id", "lea", ("team_lead",))
    await client.post(f"/api/v1/tasks/{task}/lock", headers=ann)
    sku_id = (await client.get(f"/api/v1/tasks/{task}", headers=ann)).json()["result"]["skus"][0]["sku_id"]
    patch = {"edited": [{"sku_id": sku_id, "attributes": {"price": {"before": "9.90", "after": "99.00"}}}]}
    assert (await client.post(f"/api/v1/tasks/{task}/complete", json=patch, headers=ann)).status_code == 200
    reverted = await client.post(f"/api/v1/tasks/{task}/revert", json={"reason": "that is the 10-pack's price"},
                                 headers=lead)
    assert reverted.json()["rework_count"] == 1
    redo = (await client.get("/api/v1/tasks/next", headers=BOB)).json()  # not only the annotator who did it
    assert redo["task_id"] == task
    assert redo["rework"] == {**redo["rework"], "count": 1, "reason": "that is the 10-pack's price",
                              "reverted_by": "lea", "previous_annotator": "ann", "previous_correction": patch}
    assert redo["result"]["skus"][0]["attributes"]["price"] == "99.00"  # the redo starts from the correction
    await client.post(f"/api/v1/tasks/{task}/lock", headers=BOB)
    fix = {"edited": [{"sku_id": sku_id, "attributes": {"price": {"before": "99.00", "after": "9.90"}}}]}
    assert (await client.post(f"/api/v1/tasks/{task}/complete", json=fix, headers=BOB)).status_code == 200
    reviews = [e.payload for e in await published(ctx, "page.reviewed")]
    assert [(r.revision, r.result.skus[0].attributes.price) for r in reviews] == [(2, "99.00"), (3, "9.90")]


async def test_a_tasks_reasons_read_as_sentences_in_english_and_chinese_with_their_codes_beside(collab):
    client, ctx = collab
    task = await new_task(ctx)
    sku_id = f"{HASH[:8]}_p01_001"
    words = [{"code": "ambiguous_binding", "detail": sku_id, "en": "Which picture belongs to 1 product is unclear",
              "zh": "1 个产品与图片的对应关系不明确"}]
    detail = (await client.get(f"/api/v1/tasks/{task}", headers=ANN)).json()
    assert detail["reason"] == f"ambiguous image binding for {sku_id}"  # as before, for whoever reads it
    assert detail["reasons"] == words
    assert (await client.get("/api/v1/tasks", headers=ANN)).json()["tasks"][0]["reasons"] == words


async def test_the_team_is_shown_by_name_beside_the_ids(collab):
    client, ctx = collab
    task = await new_task(ctx)
    ann = named("0b7c6f1e-ann", "ann")
    await client.post(f"/api/v1/tasks/{task}/lock", headers=ann)
    assert (await client.post(f"/api/v1/tasks/{task}/complete", json={}, headers=ann)).status_code == 200
    team = (await client.get("/api/v1/ops/annotators", headers=LEAD)).json()["annotators"]
    assert [(p["annotator"], p["name"]) for p in team] == [("0b7c6f1e-ann", "ann")]


async def test_the_ops_page_sees_the_review_backlog_by_age_for_operators_and_team_leads_only(collab):
    client, ctx = collab
    young, old, oldest = [await new_task(ctx, job=job, page=page) for job, page in (("job-1", 1), ("job-1", 2),
                                                                                      ("job-2", 1))]
    done = await new_task(ctx, job="job-2", page=2)
    async with ctx.db.transaction() as conn:
        for task, minutes in ((young, 5), (old, 40), (oldest, 200)):
            await conn.execute(human_tasks.update().where(human_tasks.c.task_id == task).values(
                created_at=sa.func.now() - sa.func.make_interval(0, 0, 0, 0, 0, minutes)))
    await client.post(f"/api/v1/tasks/{old}/lock", headers=ANN)
    await client.post(f"/api/v1/tasks/{done}/lock", headers=BOB)
    await client.post(f"/api/v1/tasks/{done}/complete", json={}, headers=BOB)
    ops = token("otto", roles=("ops",))
    for who in (LEAD, ops):
        backlog = await client.get("/api/v1/ops/backlog", headers=who)
        assert backlog.status_code == 200
        assert (await client.get("/api/v1/ops/annotators", headers=who)).status_code == 200
    seen = backlog.json()
    assert (seen["open_tasks"], seen["by_status"]) == (3, {"CREATED": 2, "PROCESSING": 1})
    assert [(b["from_minutes"], b["to_minutes"], b["tasks"]) for b in seen["by_age"]] == [
        (0, 15, 1), (15, 30, 0), (30, 120, 1), (120, 180, 0), (180, None, 1)]
    assert [(j["job_id"], j["open_tasks"], round(j["oldest_minutes"])) for j in seen["jobs"]] == [
        ("job-2", 1, 200), ("job-1", 2, 40)]
    assert (await client.get("/api/v1/ops/backlog", headers=ANN)).status_code == 403
    stranger = token("eve", merchant="m2", roles=("team_lead",))
    assert (await client.get("/api/v1/ops/backlog", headers=stranger)).json()["open_tasks"] == 0


async def test_the_ops_page_is_served_beside_the_workbench_with_its_own_script(collab):
    """The page is a shell anyone may load; its data (above, and the gateway's /ops/in-flight) answer
    only operators, team leads and admins."""
    client, _ = collab
    page = await client.get("/workbench/ops.html")
    assert page.status_code == 200 and "<title>skuflow ops</title>" in page.text
    scripts = re.findall(r'src="(/workbench/assets/[^"]+\.js)"', page.text)
    assert scripts and [(await client.get(script)).status_code for script in scripts] == [200] * len(scripts)
    assert "<title>skuflow ops</title>" not in (await client.get("/workbench/")).text


async def page_tasks(ctx, page: int) -> list[tuple[str, str, str | None, int]]:
    """Job 1's tasks of the page, oldest first: id, status, skip reason and the reading they know of."""
    async with ctx.db.transaction() as conn:
        return [tuple(row) for row in await conn.execute(sa.select(
            human_tasks.c.task_id, human_tasks.c.status, human_tasks.c.skip_reason, human_tasks.c.reading).where(
            human_tasks.c.job_id == "job-1", human_tasks.c.page == page).order_by(human_tasks.c.created_at))]


async def test_a_re_read_gives_a_waiting_task_the_better_draft_closes_it_when_no_one_is_needed_and_comes_back(collab):
    """Issue 42: the reader re-read page 2 after page 1's correction, then again after its revert."""
    client, ctx = collab
    task = await new_task(ctx, page=2, layout="sig-a")
    await deliver(ctx, bound(2, reading=1, layout="sig-a", price="19.90"))  # better, still doubtful
    detail = (await client.get(f"/api/v1/tasks/{task}", headers=ANN)).json()
    assert (detail["status"], detail["reading"], detail["result"]["skus"][0]["attributes"]["price"]) == (
        "CREATED", 1, "19.90")
    assert detail["adapted_from"] == {"job_id": "job-1", "page": 1, "task_id": "t-1"}
    await deliver(ctx, bound(2, reading=2, layout="sig-a", needs_review=False, price="29.90"))  # sure now
    assert await page_tasks(ctx, 2) == [(task, "SKIPPED", "re-read after the correction of page 1", 2)]
    assert await published(ctx, "page.reviewed") == []  # the re-read reached output by itself
    assert (await client.post(f"/api/v1/tasks/{task}/lock", headers=ANN)).status_code == 409
    await deliver(ctx, bound(2, reading=1, layout="sig-a", price="19.90"))  # an older reading, late: nothing
    await deliver(ctx, bound(2, reading=3, layout="sig-a", price="9.90"))  # the lesson reverted: doubtful again
    [closed, again] = await page_tasks(ctx, 2)
    assert closed == (task, "SKIPPED", "re-read after the correction of page 1", 2)
    assert again[0] != task and again[1:] == ("CREATED", None, 3)
    assert [e.payload.task_id for e in await published(ctx, "task.created")] == [task, again[0]]
    async with ctx.db.transaction() as conn:
        [trigger] = (await conn.execute(sa.select(ctx.tables.state_transitions.c.detail["trigger"].as_string()).where(
            ctx.tables.state_transitions.c.entity_id == task,
            ctx.tables.state_transitions.c.to_status == "SKIPPED"))).scalars()
    assert trigger == "adapted"


async def test_a_held_task_keeps_its_page_and_its_review_is_numbered_above_the_newest_reading(collab):
    client, ctx = collab
    task = await new_task(ctx, page=2, layout="sig-a")
    await client.post(f"/api/v1/tasks/{task}/lock", headers=ANN)
    await deliver(ctx, bound(2, reading=1, layout="sig-a", needs_review=True, price="19.90"))  # still doubtful
    detail = (await client.get(f"/api/v1/tasks/{task}", headers=ANN)).json()
    assert (detail["status"], detail["reading"], detail["result"]["skus"][0]["attributes"]["price"]) == (
        "PROCESSING", 0, "9.90")  # the person's page does not change under them
    sku_id = detail["result"]["skus"][0]["sku_id"]
    fix = {"edited": [{"sku_id": sku_id, "attributes": {"price": {"before": "9.90", "after": "12.00"}}}]}
    assert (await client.post(f"/api/v1/tasks/{task}/complete", json=fix, headers=ANN)).status_code == 200
    [review] = await published(ctx, "page.reviewed")
    assert review.payload.revision == review_revision(0, 0, reading=1) > machine_revision(0, reading=1)


async def test_a_held_task_whose_re_read_needs_no_one_is_closed_and_its_holder_told_why(collab):
    """The page after a correction is the one the queue offers next: held before its re-read arrives."""
    client, ctx = collab
    task = await new_task(ctx, page=2, layout="sig-a")
    await client.post(f"/api/v1/tasks/{task}/lock", headers=ANN)
    await deliver(ctx, bound(2, reading=1, layout="sig-a", needs_review=False, price="19.90"))
    assert await page_tasks(ctx, 2) == [(task, "SKIPPED", "re-read after the correction of page 1", 1)]
    beat = await client.post(f"/api/v1/tasks/{task}/heartbeat", headers=ANN)
    assert beat.status_code == 409
    assert beat.json()["detail"]["skip_reason"] == "re-read after the correction of page 1"
    assert await published(ctx, "page.reviewed") == []


async def test_a_reviewed_page_is_never_reopened_or_changed_by_a_re_read(collab):
    client, ctx = collab
    task = await new_task(ctx, page=2, layout="sig-a")
    await client.post(f"/api/v1/tasks/{task}/lock", headers=ANN)
    await client.post(f"/api/v1/tasks/{task}/complete", json={}, headers=ANN)
    for reading, sure in ((1, False), (2, True)):
        await deliver(ctx, bound(2, reading=reading, layout="sig-a", needs_review=not sure, price="19.90"))
    assert await page_tasks(ctx, 2) == [(task, "COMPLETED", None, 0)]
    detail = (await client.get(f"/api/v1/tasks/{task}", headers=ANN)).json()
    assert detail["result"]["skus"][0]["attributes"]["price"] == "9.90"


async def test_a_revert_tells_the_reader_to_unlearn_the_correction(collab):
    client, ctx = collab
    task = await new_task(ctx, page=1, layout="sig-a")
    await client.post(f"/api/v1/tasks/{task}/lock", headers=ANN)
    await client.post(f"/api/v1/tasks/{task}/complete", json={}, headers=ANN)
    assert await published(ctx, "page.review-reverted") == []
    await client.post(f"/api/v1/tasks/{task}/revert", json={"reason": "the wrong column was the price"}, headers=LEAD)
    [reverted] = await published(ctx, "page.review-reverted")
    assert (reverted.job_id, reverted.payload.page, reverted.payload.layout) == ("job-1", 1, "sig-a")
    assert (reverted.payload.task_id, reverted.payload.reverted_by, reverted.payload.reason) == (
        task, "lea", "the wrong column was the price")
    closed = await new_task(ctx, page=2, layout="sig-a")
    await deliver(ctx, bound(2, reading=1, layout="sig-a", needs_review=False))  # closed by the re-read
    again = await client.post(f"/api/v1/tasks/{closed}/revert", json={"reason": "look at it"}, headers=LEAD)
    assert again.json()["status"] == "CREATED"  # a person will look at it after all
    assert len(await published(ctx, "page.review-reverted")) == 1  # but no review of it taught the reader


async def test_next_offers_first_the_page_whose_correction_teaches_the_most_others_and_says_how_many(collab):
    client, ctx = collab
    lone = await new_task(ctx, page=1, layout="sig-a", confidence=0.5)  # the least sure, but alone
    table = [await new_task(ctx, page=page, layout="sig-b", confidence=confidence)
             for page, confidence in ((2, 0.8), (3, 0.6))]
    rest = await new_task(ctx, page=4, layout="sig-b", confidence=0.7)
    unsigned = await new_task(ctx, page=5)
    offered = (await client.get("/api/v1/tasks/next", headers=ANN)).json()
    assert (offered["task_id"], offered["similar_pages"]) == (table[1], 2)  # of sig-b's 3, the least sure
    seen = {task: (await client.get(f"/api/v1/tasks/{task}", headers=ANN)).json()["similar_pages"]
            for task in (lone, unsigned)}
    assert seen == {lone: 0, unsigned: 0}
    await client.post(f"/api/v1/tasks/{table[1]}/lock", headers=ANN)
    await client.post(f"/api/v1/tasks/{table[1]}/complete", json={}, headers=ANN)
    assert (await client.get(f"/api/v1/tasks/{table[1]}", headers=ANN)).json()["similar_pages"] == 2
    assert (await client.get(f"/api/v1/tasks/{table[0]}", headers=ANN)).json()["similar_pages"] == 1
    assert (await client.get("/api/v1/tasks/next", headers=ANN)).json()["task_id"] == rest  # sig-b's 2 remaining
