"""Correct one page, the rest follow (issue 42), end to end on the real Kafka, Postgres and the eight
services, the annotator in a real headless Chromium: a three-page price list the reader misreads the
same way on every page is uploaded; the workbench says the correction will be applied to the two similar
pages; the annotator corrects one page; the other two are read again with what it taught, re-delivered
as new revisions, and their tasks close. The merchant's next catalog of that layout starts from the
lesson, another merchant's does not. A team lead's revert unlearns it: the two pages are read again
without it and what they had delivered is superseded downstream."""

from __future__ import annotations

import asyncio
import json
import time
import uuid

import httpx
import pytest
import sqlalchemy as sa
from playwright.async_api import async_playwright

from skuflow_contracts.revisions import machine_revision
from skuflow_contracts.topics import SKU_DELIVERED, SKU_SUPERSEDED
from tests.e2e.adaptation_catalog import ROWS, item_catalog, item_number, truth
from tests.e2e.annotator_robot import Robot
from tests.e2e.review_desk import CHROMIUM, bearer, logged_in, open_task, seasoned, shots, wait_rows
from tests.e2e.stack import offsets, records_of

pytestmark = pytest.mark.e2e
RUN = uuid.uuid4().hex[:6]  # lessons and annotators' records are the merchant's: each run starts without them
MERCHANT = f"merchant-adapt-{RUN}"
STRANGER = f"merchant-adapt-other-{RUN}"
REREAD, UNDONE = machine_revision(0, 1), machine_revision(0, 2)


def tasks(pipeline, job_id: str, expect: int, timeout: float = 120) -> dict[int, sa.Row]:
    """The job's tasks by page, once ``expect`` exist."""
    engine = sa.create_engine(pipeline.database_url)
    deadline = time.monotonic() + timeout
    try:
        while True:
            with engine.connect() as conn:
                rows = conn.execute(sa.text("SELECT * FROM collab.human_tasks WHERE job_id = :j"), {"j": job_id}).all()
            if len(rows) >= expect or time.monotonic() > deadline:
                return {row.page: row for row in rows}
            time.sleep(0.3)
    finally:
        engine.dispose()


def models(pipeline, job_id: str, merchant: str) -> dict[int, list[str | None]]:
    return {p["page"]: [s["attributes"]["model"] for s in p["skus"]]
            for p in pipeline.result(job_id, merchant)["pages"]}


def names_only(read: dict[int, list[str | None]], pages=(1, 2, 3)) -> bool:
    """Each of ``pages`` read by its names, one for each of its rows at least, and by no item number (the
    reader untaught may also take the list's title for a product, flagged: that is not what is tested)."""
    return all(len(read.get(n, ())) >= ROWS and not any(read[n]) for n in pages)


def item_numbers(page: int) -> list[str]:
    return [item_number(page, n) for n in range(ROWS)]


def payloads(records) -> list[dict]:
    return [json.loads(r.value)["payload"] for r in records]


async def _correct_page_one(pipeline, job_id: str, user: str, colleague: str, out) -> dict:
    """The annotator corrects page 1 in the workbench while a colleague holds page 2: the re-read closes
    it under them, and their workbench says why."""
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True)
        # each takes a page by hand first (dispatch gives a hard page to one annotator): the workbench
        # offers the task its annotator holds
        first, held = [t.task_id for _, t in sorted(tasks(pipeline, job_id, 3).items())][:2]
        for who, task in ((user, first), (colleague, held)):  # as their logins, which the workbench uses
            assert httpx.post(f"{pipeline.collab}/api/v1/tasks/{task}/lock", headers=bearer(pipeline, who)).is_success
        page = await logged_in(browser, pipeline, user)
        task_id = await open_task(page)
        other = await logged_in(browser, pipeline, colleague)
        assert (task_id, await open_task(other)) == (first, held)
        detail = httpx.get(f"{pipeline.collab}/api/v1/tasks/{task_id}", headers=bearer(pipeline, user)).json()
        assert detail["similar_pages"] == 2
        assert "2" in await page.get_by_test_id("similar-pages").inner_text()
        robot = Robot(page, user, task_id, [{"attributes": s["attributes"]} for s in detail["result"]["skus"]],
                      tuple(detail["page_size"]))
        await robot.fix(truth(detail["page"]))
        assert (await robot.left(truth(detail["page"]))).size == 0
        await page.screenshot(path=str(out / "workbench-adaptation.png"))
        await page.keyboard.press("Control+Enter")
        await page.locator(f"[data-testid=task-title][data-task='{task_id}']").wait_for(state="detached")
        told = other.get_by_text("needs no review any more").first
        await told.wait_for(timeout=60_000)
        assert f"re-read after the correction of page {detail['page']}" in await told.inner_text()
        await other.screenshot(path=str(out / "workbench-closed-by-re-read.png"))
        await browser.close()
    return detail


def test_one_correction_is_followed_by_the_pages_of_its_layout_and_a_revert_undoes_it(pipeline, tmp_path):
    user, colleague = seasoned(pipeline, f"ann.adapt.{RUN}", MERCHANT), seasoned(pipeline, f"ann.other.{RUN}", MERCHANT)
    start = offsets(pipeline, SKU_DELIVERED.name, SKU_SUPERSEDED.name)
    job_id = pipeline.upload(item_catalog(tmp_path / "glass.pdf", range(1, 4)), merchant=MERCHANT)
    assert sorted(tasks(pipeline, job_id, 3)) == [1, 2, 3]
    pipeline.wait(job_id, lambda j: j["status"] == "PARTIAL_IMPORTED", merchant=MERCHANT)
    assert names_only(models(pipeline, job_id, MERCHANT))  # the name, not the item number

    detail = asyncio.run(_correct_page_one(pipeline, job_id, user, colleague, shots(tmp_path)))
    corrected, others = detail["page"], sorted({1, 2, 3} - {detail["page"]})
    wait_rows(pipeline, f"SELECT count(*) FROM output.page_results WHERE job_id = ANY(:jobs) AND revision = {REREAD}",
              2, [job_id])
    pipeline.wait(job_id, lambda j: j["status"] == "FULL_IMPORTED", merchant=MERCHANT)
    assert models(pipeline, job_id, MERCHANT) == {n: item_numbers(n) for n in (1, 2, 3)}
    closed = tasks(pipeline, job_id, 3)
    assert closed[corrected].status == "COMPLETED"
    for n in others:
        assert closed[n].status == "SKIPPED" and closed[n].context["reading"] == 1
    delivered = payloads(records_of(pipeline, SKU_DELIVERED, start[SKU_DELIVERED.name], job_id, 3 * ROWS))
    assert sorted({(d["page"], d["revision"]) for d in delivered}) == sorted(
        [(corrected, 2), *((n, REREAD) for n in others)])

    # The merchant's next catalog of that layout starts from the lesson; another merchant's does not.
    again = item_catalog(tmp_path / "glass-2.pdf", range(4, 7))
    second = pipeline.upload(again, merchant=MERCHANT)
    pipeline.wait(second, lambda j: j["status"] == "FULL_IMPORTED", merchant=MERCHANT)
    assert models(pipeline, second, MERCHANT) == {n - 3: item_numbers(n) for n in (4, 5, 6)}
    assert tasks(pipeline, second, 0, timeout=0) == {}
    stranger = pipeline.upload(again, merchant=STRANGER)
    pipeline.wait(stranger, lambda j: j["status"] == "PARTIAL_IMPORTED", merchant=STRANGER)
    assert sorted(tasks(pipeline, stranger, 3)) == [1, 2, 3]
    assert names_only(models(pipeline, stranger, STRANGER))

    # A team lead reverts the correction: the two pages are read again without it, and what they had
    # delivered is superseded downstream.
    with pipeline.tasks(f"lead.{RUN}", merchant=MERCHANT, roles=("team_lead",)) as lead:
        answer = lead.post(f"/api/v1/tasks/{detail['task_id']}/revert", json={"reason": "the item numbers were wrong"})
        assert answer.status_code == 200, answer.text
    wait_rows(pipeline, f"SELECT count(*) FROM output.page_results WHERE job_id = ANY(:jobs) AND revision = {UNDONE}",
              2, [job_id])
    superseded = payloads(records_of(pipeline, SKU_SUPERSEDED, start[SKU_SUPERSEDED.name], job_id, 2 * ROWS))
    assert sorted({(s["page"], s["revision"], s["superseded_by"]) for s in superseded}) == [
        (n, REREAD, UNDONE) for n in others]
    now = models(pipeline, job_id, MERCHANT)
    assert names_only(now, others)
