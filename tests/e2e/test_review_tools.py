"""The review tools that make a dense page cheap, in a real headless Chromium against the running services:
zoom and pan, several SKUs edited at once, and the table tool. Real pages of ``tests/real`` are read by
the pipeline under a profile that sends every page to review; a robot annotator
(``annotator_robot``) makes each page right from its truth, once SKU by SKU and once with the table
tool, and the keys, clicks and seconds each took are printed. The corrected page output delivers is
scored against the truth. SKUFLOW_SCREENSHOTS=DIR keeps the screenshots (docs/screenshots holds the
committed ones)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from playwright.async_api import async_playwright

from skuflow_cli.evaluation.scoring import score_page
from skuflow_cli.golden.twins import scanned_twin
from tests.e2e.annotator_robot import Robot, is_correct
from tests.e2e.review_desk import (
    CHROMIUM,
    account,
    downstream,
    logged_in,
    open_task,
    reviewed_upload,
    seasoned,
    shots,
    wait_rows,
)

pytestmark = pytest.mark.e2e
MERCHANT = "merchant-tools"
ZOOM_MERCHANT = "merchant-zoom"  # its own queue: a task another test leaves open is not offered here
REAL = Path(__file__).resolve().parents[1] / "real"
TABLE_WORTH = 10  # corrections a page needs before the robot reaches for the table tool
SCAN_BUDGET = {"SKUFLOW_PARSER_PAGE_BUDGET_SECONDS": "300"}  # a dense A3 scan OCR'd on two busy cores


def truth_of(name: str) -> tuple[Path, dict]:
    for folder in ("committed", "external"):
        pdf = REAL / folder / f"{name}.pdf"
        if pdf.exists():
            return pdf, json.loads((REAL / folder / f"{name}.truth.json").read_text())["pages"][0]
    pytest.skip(f"{name}.pdf is not on this machine (tests/real/external is not committed: see SOURCES.md)")


def task_detail(pipeline, user: str, task_id: str) -> dict:
    with pipeline.tasks(user, merchant=MERCHANT) as client:
        return client.get(f"/api/v1/tasks/{task_id}").json()


@pytest.fixture(scope="module")
def annotator(pipeline):
    """A seasoned annotator: a scan is a hard page, and hard pages go only to accurate annotators."""
    with pipeline.restarted(("parser",), SCAN_BUDGET):
        yield seasoned(pipeline, "ann.tools", MERCHANT)


async def _start_over(page, empty: bool) -> None:
    """Back to the machine's reading; ``empty``: then every SKU deleted, as on a page read to nothing."""
    page.once("dialog", lambda dialog: dialog.accept())
    await page.get_by_test_id("start-over").click()
    if empty and await page.get_by_test_id("sku-row").count():
        await page.keyboard.press("Control+a")  # every SKU picked
        await page.keyboard.press("x")
        await page.get_by_test_id("sku-row").first.wait_for(state="detached")


async def _made_right(page, user: str, detail: dict, truth: dict, out: Path, name: str, empty: bool) -> dict:
    """The page made right twice from the same start (the machine's reading, or nothing), SKU by SKU and
    with the table tool where it pays; the cost of each."""
    size = tuple(detail["page_size"])
    reading = [] if empty else [{"attributes": s["attributes"]} for s in detail["result"]["skus"]]
    await _start_over(page, empty)
    by_hand = Robot(page, user, detail["task_id"], reading, size)
    plan = await by_hand.fix(truth["skus"])
    before = by_hand.stop()
    left = await by_hand.left(truth["skus"])
    assert left.size == 0, (left, [(await by_hand.state())[i] for i in left.edits])
    await _start_over(page, empty)
    with_table = Robot(page, user, detail["task_id"], reading, size)
    tables = 0
    if plan.size > TABLE_WORTH:
        tables = await with_table.lay_tables(truth["skus"], detail["words"], out / f"workbench-table-{name}.png")
    await with_table.fix(truth["skus"])
    after = with_table.stop()
    left = await with_table.left(truth["skus"])
    state = await with_table.state()
    assert left.size == 0 and is_correct(truth, state), (left, [state[i] for i in left.edits])
    return {"page": name, "start": "nothing" if empty else "machine", "truth_skus": len(truth["skus"]),
            "corrections": plan.size, "tables": tables, "before": before.row(), "after": after.row()}


@pytest.mark.parametrize("name, twin", [
    ("embl_parts_en", True),  # a parts list of 22 codes, printed and scanned at 100-150 dpi
    ("jieli_ad_zh", False),  # a dense Chinese selection table, 54 rows, born-digital
    pytest.param("jieli_ad_zh", True, marks=pytest.mark.skipif(  # the same page scanned: 2-4 minutes of OCR
        not os.environ.get("SKUFLOW_SLOW_REVIEW_TOOLS"), reason="set SKUFLOW_SLOW_REVIEW_TOOLS=1 to measure it")),
    ("haizhixing_menu_zh", False),  # a scanned order-sheet menu of 116 dishes (not committed: local only)
])
async def test_a_page_made_right_with_and_without_the_table_tool(pipeline, annotator, tmp_path, name, twin):
    pdf, truth = truth_of(name)
    if twin:
        pdf = tmp_path / f"{name}-twin.pdf"
        pdf.write_bytes(scanned_twin(truth_of(name)[0].read_bytes(), seed=name))
    job_id = reviewed_upload(pipeline, pdf, MERCHANT)
    label = f"{name}{'-twin' if twin else ''}"
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = await logged_in(browser, pipeline, annotator)
        task_id = await open_task(page)
        detail = task_detail(pipeline, annotator, task_id)
        assert detail["job_id"] == job_id
        figures = [await _made_right(page, annotator, detail, truth, shots(tmp_path), label, empty)
                   for empty in (True, False)]  # the page left right as the machine's reading made right
        await page.keyboard.press("Control+Enter")
        await page.locator(f"[data-testid=task-title][data-task='{task_id}']").wait_for(state="detached")
        await browser.close()
    for row in figures:
        print(f"\ntime to a correct page: {json.dumps(row)}")
    wait_rows(pipeline, "SELECT count(*) FROM output.page_results WHERE job_id = ANY(:jobs) AND revision = 2",
              1, [job_id])
    pages, _ = downstream(pipeline, [job_id])
    assert score_page(truth, pages[(job_id, 1)][1]).error_pages == 0  # delivered as the truth reads
    empty = figures[0]  # a page read to nothing: the table tool's case (from a reading, it may not pay)
    if empty["tables"]:
        assert empty["after"]["person_seconds"] < empty["before"]["person_seconds"]


async def test_zoom_pan_and_several_skus_edited_at_once(pipeline, tmp_path):
    out = shots(tmp_path)
    pdf, _ = truth_of("jieli_ad_zh")
    job_id = reviewed_upload(pipeline, pdf, ZOOM_MERCHANT)
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = await logged_in(browser, pipeline, account(pipeline, "ann.zoom", ZOOM_MERCHANT))
        task_id = await open_task(page)
        with pipeline.tasks("ann.zoom", merchant=ZOOM_MERCHANT) as client:
            reading = client.get(f"/api/v1/tasks/{task_id}").json()
        assert reading["job_id"] == job_id
        canvas, viewport = page.get_by_test_id("page-canvas"), page.get_by_test_id("page-viewport")
        width = (await canvas.bounding_box())["width"]
        async with page.expect_request(lambda r: "sharp=true" in r.url):  # zoomed in: the sharper picture
            await page.keyboard.press("+")
            await page.keyboard.press("+")
        assert await page.get_by_test_id("zoom").inner_text() == "200%"
        assert (await canvas.bounding_box())["width"] == pytest.approx(2 * width, abs=2)
        box = await viewport.bounding_box()
        left = await viewport.evaluate("v => v.scrollLeft")
        await page.mouse.move(box["x"] + 400, box["y"] + 300)  # a drag where no box is pans the page
        await page.mouse.down()
        await page.mouse.move(box["x"] + 250, box["y"] + 300, steps=5)
        await page.mouse.up()
        assert await viewport.evaluate("v => v.scrollLeft") == pytest.approx(left + 150, abs=3)
        await page.keyboard.press("+")
        await page.get_by_test_id("zoom").filter(has_text="300%").wait_for()
        await viewport.evaluate("v => v.scrollTo(0, 0)")
        await page.screenshot(path=out / "workbench-zoomed.png")  # the dense table's first rows, legible
        await page.mouse.move(box["x"] + 300, box["y"] + 300)
        await page.keyboard.down("Control")
        await page.mouse.wheel(0, 300)  # Ctrl+wheel zooms out at the pointer
        await page.keyboard.up("Control")
        await page.get_by_test_id("zoom").filter(has_text="200%").wait_for()

        rows = page.get_by_test_id("sku-row")
        await rows.nth(0).click()
        await rows.nth(2).click(modifiers=["Shift"])  # the run 1-3
        await rows.nth(4).click(modifiers=["Control"])  # and 5
        await page.get_by_test_id("picked-count").filter(has_text="4").wait_for()
        await page.get_by_test_id("bulk-field").select_option("size")
        await page.get_by_test_id("bulk-value").fill("SOP16")
        await page.get_by_test_id("bulk-apply").click()
        await page.get_by_test_id("bulk-field").select_option("model")
        await page.get_by_test_id("bulk-find").fill("AD")
        await page.get_by_test_id("bulk-value").fill("XY")
        await page.get_by_test_id("bulk-apply").click()
        await page.screenshot(path=out / "workbench-bulk.png")
        await page.get_by_test_id("bulk-keep").click()  # delete all but the picked
        await page.get_by_test_id("sku-row").nth(4).wait_for(state="detached")
        await page.keyboard.press("Control+Enter")
        await page.locator(f"[data-testid=task-title][data-task='{task_id}']").wait_for(state="detached")
        await browser.close()
    wait_rows(pipeline, "SELECT count(*) FROM output.page_results WHERE job_id = ANY(:jobs) AND revision = 2",
              1, [job_id])
    pages, _ = downstream(pipeline, [job_id])
    skus = pages[(job_id, 1)][1]["skus"]
    assert len(skus) == 4
    machine = [s["attributes"]["model"] for s in reading["result"]["skus"]][:5]
    picked = [machine[i] for i in (0, 1, 2, 4)]
    assert [s["attributes"]["model"] for s in skus] == [m.replace("AD", "XY") for m in picked]
    assert {s["attributes"]["size"] for s in skus} == {"SOP16"}
