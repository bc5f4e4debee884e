"""The review desk never loses or changes what it was not asked to change, in a real headless Chromium
against the running services: approving a page unchanged sends nothing new downstream, however its
values are punctuated, for every page of the committed real set and the golden set; an edit survives
a token that expires and a login that ends; a closed tab frees its task; an annotator's own task
comes back to them; release passes the task on; a rework shows who reverted it and why."""

import asyncio
import json
import time
from pathlib import Path

import httpx
import jwt
import pytest
from playwright.async_api import async_playwright

from skuflow_cli.evaluation.golden import load_golden_set
from skuflow_contracts.results import PageResult, SkuRecord
from tests.e2e.review_desk import (
    CHROMIUM,
    LOCK_SECONDS,
    TIMER_SECONDS,
    Reading,
    account,
    approve_all,
    bearer,
    deliver,
    downstream,
    log_in,
    logged_in,
    open_task,
    reading_of,
    review_tasks,
    shots,
    task_row,
    wait_rows,
)
from tests.e2e.stack import SECRET

pytestmark = pytest.mark.e2e
REPO = Path(__file__).resolve().parents[2]
REVIEW_STATE = {"status", "confidence"}  # what a review may change on a SKU it leaves as it was

PUNCTUATED = {
    "型号说明": "1.fla,flb,flc; 2.a,b,e; 带录音，支持：MP3/WAV",
    "key=value": "a=b; c=d, e=f",
    "多行": "第一行：尺寸 10×20\n第二行；重量=5kg\n",
    " spaced ": "  leading and trailing  ",
    "empty": "",
}


def punctuated_page(page: int = 1) -> PageResult:
    skus = [SkuRecord(sku_id=f"dd00dd00_p{page:02d}_{n:03d}", validity="valid", confidence=0.41,
                      attributes={"model": f"JL-{n}; A=B", "product_name": "音频芯片，SOP8：带录音\n(新)",
                                  "price": "12.50", "size": "3=4; 5,6"},
                      custom_attributes=PUNCTUATED, raw_attributes={"price": "¥12.50；含税"},
                      source_bbox=(40, 60 + 20 * n, 500, 75 + 20 * n), status="PENDING_CONFIRMATION",
                      attribute_source={"size": "table_caption"})
            for n in (1, 2, 3)]
    return PageResult(page=page, status="HUMAN_QUEUED", page_type="A", layout="L1", needs_review=True,
                      parser_backend="pymupdf", extraction_method="table_rule", skus=skus)


def changed_values(reading: Reading, pages: dict) -> list[str]:
    """Every value of the machine's SKUs and bindings that the page output holds now does not keep."""
    changed = []
    for machine in reading.pages:
        _, held = pages[(reading.job_id, machine.page)]
        held = PageResult.model_validate(held)
        if held.model_dump(include={"page_type", "layout", "images"}) != machine.model_dump(
                include={"page_type", "layout", "images"}):
            changed.append(f"{reading.job_id}/{machine.page}: page")
        kept = {s.sku_id: s for s in held.skus}
        for sku in machine.skus:
            now = kept.get(sku.sku_id)
            if now is None or now.model_dump(exclude=REVIEW_STATE) != sku.model_dump(exclude=REVIEW_STATE):
                changed.append(f"{reading.job_id}/{machine.page}/{sku.sku_id}")
        if [b for b in held.bindings] != [b for b in machine.bindings]:
            changed.append(f"{reading.job_id}/{machine.page}: bindings")
    return changed


def approved_unchanged(pipeline, merchant: str, user: str, readings: list[Reading]) -> tuple[list[str], list]:
    """Deliver the readings (revision 1), review every page in the workbench approving it as shown,
    wait for output to hold every review; the values changed, and the SKU deliveries."""
    deliver(pipeline, merchant, readings)
    tasks = review_tasks(pipeline, merchant, readings, assignee=user)
    jobs = [r.job_id for r in readings]

    async def review() -> None:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True)
            page = await logged_in(browser, pipeline, user)
            started = time.perf_counter()
            approved = await approve_all(page, len(tasks))
            assert sorted(approved) == sorted(tasks)
            await page.get_by_test_id("notice").wait_for()
            print(f"\n{len(tasks)} pages approved in the workbench in {time.perf_counter() - started:.1f} s")
            await browser.close()

    asyncio.run(review())
    wait_rows(pipeline, "SELECT count(*) FROM output.page_results WHERE job_id = ANY(:jobs) AND revision = 2",
              len(tasks), jobs)
    pages, delivered = downstream(pipeline, jobs)
    changed = []
    for reading in readings:
        changed += changed_values(reading, pages)
    return changed, delivered


def test_approving_a_punctuated_page_unchanged_leaves_every_value_and_delivery_as_it_was(pipeline):
    merchant = "merchant-desk-punct"
    user = account(pipeline, "desk.punct", merchant)
    reading = reading_of([punctuated_page()])
    changed, delivered = approved_unchanged(pipeline, merchant, user, [reading])
    assert changed == []
    assert sorted((row.revision, row.status) for row in delivered) == [(1, "DELIVERED")] * 3  # nothing new


def machine_readings(read_in_process) -> list[Reading]:
    """The machine's reading of every page of the committed real set and the golden set (in-process)."""
    documents = load_golden_set(REPO / "tests" / "real" / "committed") + load_golden_set(REPO / "tests" / "golden")
    readings = []
    for outcome in read_in_process(documents):
        if outcome.result is None:
            continue
        pages = [PageResult.model_validate(page) for page in outcome.result["pages"]]
        pages = [page.model_copy(update={"images": [i.model_copy(update={"source_uri": None}) for i in page.images]})
                 for page in pages]  # the in-process reading's picture files are gone with its scratch storage
        readings.append(reading_of(pages, outcome.result["job"]["file_hash"]))
    return readings


@pytest.mark.timeout(1800)  # reads the golden and committed real sets in process first, unless a gate already did
def test_approving_every_real_and_golden_page_unchanged_changes_no_value_and_delivers_nothing_new(
        pipeline, read_in_process):
    merchant = "merchant-desk-all"
    user = account(pipeline, "desk.all", merchant)
    readings = machine_readings(read_in_process)
    pages = sum(len(r.pages) for r in readings)
    skus = sum(len(p.skus) for r in readings for p in r.pages)
    custom = sum(len(s.custom_attributes) for r in readings for p in r.pages for s in p.skus)
    changed, delivered = approved_unchanged(pipeline, merchant, user, readings)
    print(f"{len(readings)} documents, {pages} pages, {skus} SKUs ({custom} custom attribute values): "
          f"{len(changed)} changed values, {sum(1 for d in delivered if d.revision > 1)} new SKU revisions")
    assert pages >= 350 and changed == []
    assert {(row.revision, row.status) for row in delivered} == {(1, "DELIVERED")}


async def _edit_price(page, value: str) -> None:
    await page.keyboard.press("e")  # model
    await page.keyboard.press("Tab")  # name
    await page.keyboard.press("Tab")  # price
    await page.keyboard.press("Control+a")
    await page.keyboard.type(value)
    await page.keyboard.press("Enter")


async def _replace_token(page, *, refresh: str | None = None) -> None:
    """The tab's access token, expired; with ``refresh``, its refresh token replaced too (a login
    that has ended: revoked, or over its days)."""
    stored = json.loads(await page.evaluate("sessionStorage.getItem('skuflow.session')"))
    claims = jwt.decode(stored["token"], SECRET, algorithms=["HS256"])
    stored["token"] = jwt.encode({**claims, "iat": claims["iat"] - 7200, "exp": claims["iat"] - 3600}, SECRET,
                                 algorithm="HS256")
    if refresh is not None:
        stored["refreshToken"] = refresh
    await page.evaluate("s => sessionStorage.setItem('skuflow.session', s)", json.dumps(stored))


def test_an_edit_survives_an_expired_token_and_a_login_that_ends(pipeline):
    merchant = "merchant-desk-session"
    user = account(pipeline, "desk.session", merchant)
    first, second = reading_of([punctuated_page(1)]), reading_of([punctuated_page(2)])
    deliver(pipeline, merchant, [first, second])
    tasks = review_tasks(pipeline, merchant, [first, second], assignee=user)

    async def work() -> None:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True)
            page = await logged_in(browser, pipeline, user)
            assert await open_task(page) == tasks[0]
            await _edit_price(page, "13.00")
            await _replace_token(page)  # an hour later: the access token has run out, the login has not
            await page.keyboard.press("Control+Enter")
            assert await open_task(page, after=tasks[0]) == tasks[1]  # renewed silently, no login screen

            await _edit_price(page, "14.00")
            await _replace_token(page, refresh="revoked-long-ago")  # the login itself has ended
            await page.keyboard.press("Control+Enter")
            await page.get_by_test_id("session-ended").wait_for()
            await log_in(page, user)
            assert await open_task(page) == tasks[1]
            await page.get_by_test_id("message").wait_for()  # "your unsaved edits were restored"
            assert await page.locator("input[name=price]").input_value() == "14.00"
            await page.keyboard.press("Control+Enter")
            await page.get_by_test_id("notice").wait_for()
            await browser.close()

    asyncio.run(work())
    wait_rows(pipeline, "SELECT count(*) FROM output.page_results WHERE job_id = ANY(:jobs) AND revision = 2", 2,
              [first.job_id, second.job_id])
    pages, _ = downstream(pipeline, [first.job_id, second.job_id])
    assert pages[(first.job_id, 1)][1]["skus"][0]["attributes"]["price"] == "13.00"
    assert pages[(second.job_id, 2)][1]["skus"][0]["attributes"]["price"] == "14.00"


def test_a_closed_tab_frees_its_task_and_a_crashed_one_within_the_lock_expiry(pipeline):
    merchant = "merchant-desk-close"
    user = account(pipeline, "desk.close", merchant)
    reading = reading_of([punctuated_page(1), punctuated_page(2)])
    deliver(pipeline, merchant, [reading])
    closed, crashed = review_tasks(pipeline, merchant, [reading], assignee=user)

    def freed_within(task_id: str, seconds: float) -> float:
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            if task_row(pipeline, task_id).status == "CREATED":
                return time.monotonic() - started
            time.sleep(0.2)
        raise AssertionError(f"task {task_id} still {task_row(pipeline, task_id).status} after {seconds} s")

    async def work() -> tuple[float, float]:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True)
            page = await logged_in(browser, pipeline, user)
            assert await open_task(page) == closed
            await page.close()  # the tab closes: its lock goes back at once
            at_once = freed_within(closed, 3)
            context = await browser.new_context()
            page = await context.new_page()
            await page.goto(f"{pipeline.collab}/workbench/")
            await log_in(page, user)
            assert await open_task(page) == crashed  # the closed one was given back: it waits for others
            await context.set_offline(True)  # the machine loses its network, then the tab dies
            await page.close()
            await browser.close()
        return at_once, freed_within(crashed, LOCK_SECONDS + 3 * TIMER_SECONDS)

    at_once, expired = asyncio.run(work())
    print(f"\nclosed tab freed its task in {at_once:.1f} s; an unreachable one in {expired:.1f} s")


def test_an_annotators_own_locked_task_is_offered_back_and_release_gives_another(pipeline):
    merchant = "merchant-desk-own"
    user = account(pipeline, "desk.own", merchant)
    reading = reading_of([punctuated_page(1), punctuated_page(2)])
    deliver(pipeline, merchant, [reading])
    first, second = review_tasks(pipeline, merchant, [reading])

    async def work() -> None:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True)
            tab = await logged_in(browser, pipeline, user)
            assert await open_task(tab) == first
            elsewhere = await (await browser.new_context()).new_page()  # another tab, a new login
            await elsewhere.goto(f"{pipeline.collab}/workbench/")
            await log_in(elsewhere, user)
            assert await open_task(elsewhere) == first  # not "No task is waiting"
            await elsewhere.keyboard.press("r")
            assert await open_task(elsewhere, after=first) == second  # release passes it on
            await browser.close()

    asyncio.run(work())
    assert task_row(pipeline, first).status == "CREATED"


def test_a_rework_shows_the_revert_reason_and_the_earlier_correction_to_another_annotator(pipeline, tmp_path):
    merchant = "merchant-desk-rework"
    ann, bob = account(pipeline, "desk.ann", merchant), account(pipeline, "desk.bob", merchant)
    lead = account(pipeline, "desk.lead", merchant, role="team_lead")
    reading = reading_of([punctuated_page(1)])
    deliver(pipeline, merchant, [reading])
    [task] = review_tasks(pipeline, merchant, [reading], assignee=ann)

    async def work() -> None:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True)
            page = await logged_in(browser, pipeline, ann)
            assert await open_task(page) == task
            await _edit_price(page, "99.00")
            await page.keyboard.press("Control+Enter")
            await page.get_by_test_id("notice").wait_for()
            await page.close()  # ann is done for the day
            with httpx.Client(base_url=pipeline.collab, headers=bearer(pipeline, lead)) as team_lead:
                assert team_lead.post(f"/api/v1/tasks/{task}/revert",
                                      json={"reason": "99.00 is the 10-pack's price"}).status_code == 200
            redo = await (await browser.new_context()).new_page()
            await redo.goto(f"{pipeline.collab}/workbench/")
            await log_in(redo, bob)
            assert await open_task(redo) == task
            rework = redo.get_by_test_id("rework")
            await rework.wait_for()
            assert await redo.get_by_test_id("revert-reason").inner_text() == "99.00 is the 10-pack's price"
            assert "desk.lead" in await rework.inner_text() and "desk.ann" in await rework.inner_text()
            assert '"12.50" → "99.00"' in await redo.get_by_test_id("previous-correction").inner_text()
            assert await redo.locator("input[name=price]").input_value() == "99.00"  # from the correction
            await redo.screenshot(path=shots(tmp_path) / "workbench-rework.png", full_page=True)
            await _edit_price(redo, "12.50")
            await redo.keyboard.press("Control+Enter")
            await redo.get_by_test_id("notice").wait_for()
            await browser.close()

    asyncio.run(work())
    wait_rows(pipeline, "SELECT count(*) FROM output.page_results WHERE job_id = ANY(:jobs) AND revision = 3", 1,
              [reading.job_id])
    pages, delivered = downstream(pipeline, [reading.job_id])
    assert pages[(reading.job_id, 1)][1]["skus"][0]["attributes"]["price"] == "12.50"
    assert task_row(pipeline, task).rework_count == 1
    first = reading.pages[0].skus[0].sku_id
    assert sorted((d.revision, d.status) for d in delivered if d.sku_id == first) == [
        (1, "SUPERSEDED"), (2, "SUPERSEDED"), (3, "DELIVERED")]
    assert {(d.revision, d.status) for d in delivered if d.sku_id != first} == {(1, "DELIVERED")}
