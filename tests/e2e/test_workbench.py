"""The annotator workbench in a real headless Chromium against the running services: log in, open
the next task, edit a price with the keyboard only, bind candidate 2, draw a new SKU and its
picture, approve; then
the API holds exactly that. A page of 800 SKU boxes opens and a box can be picked; the time to first
render and to select a box are printed (figures, not assertions). SKUFLOW_SCREENSHOTS=DIR keeps the
screenshots (docs/screenshots holds the committed ones)."""

import json
import time
import uuid

import pytest
import sqlalchemy as sa
from playwright.async_api import async_playwright

from tests.e2e.review_catalog import review_catalog
from tests.e2e.review_desk import CHROMIUM, PASSWORD, logged_in, open_task, seasoned, shots

pytestmark = pytest.mark.e2e
MERCHANT = "merchant-wb"  # its own queue: other end-to-end tests leave tasks of their merchant waiting


@pytest.fixture(scope="module")
def annotator(pipeline):
    """An annotator account made with `skuflow user add`, as an operator would, with a clean record: the
    review catalog's card between two photos is read with little confidence, and such hard pages go only
    to accurate annotators (dispatch is the review desk's tests' subject; this one's is the keyboard)."""
    return seasoned(pipeline, "ann.browser", MERCHANT)


def wait_tasks(pipeline, job_id: str, expect: int) -> list[dict]:
    with pipeline.tasks("observer", merchant=MERCHANT) as client:
        for _ in range(200):
            found = client.get("/api/v1/tasks", params={"job_id": job_id}).json()["tasks"]
            if len(found) >= expect:
                return found
            time.sleep(0.3)
    raise AssertionError("no tasks")


async def test_an_annotator_corrects_a_page_with_the_keyboard_and_the_api_holds_it(pipeline, annotator, tmp_path):
    out = shots(tmp_path)
    job_id = pipeline.upload(review_catalog(tmp_path / "review.pdf"), merchant=MERCHANT)
    pipeline.wait(job_id, lambda j: j["status"] == "PARTIAL_IMPORTED", merchant=MERCHANT)
    binding = next(t for t in wait_tasks(pipeline, job_id, 2) if t["task_type"] == "BINDING_REVIEW")
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = await browser.new_page(viewport={"width": 1400, "height": 950})
        await page.goto(f"{pipeline.collab}/workbench/")
        await page.fill("input[name=username]", annotator)
        await page.fill("input[name=password]", "wrong password 1")
        await page.keyboard.press("Enter")
        await page.get_by_role("alert").wait_for()
        await page.screenshot(path=out / "workbench-login.png")
        await page.fill("input[name=password]", PASSWORD)
        await page.keyboard.press("Enter")
        await page.get_by_test_id("task-title").filter(has_text="BINDING_REVIEW").wait_for()
        await page.get_by_test_id("page-canvas").wait_for()

        await page.keyboard.press("e")  # model field
        await page.keyboard.press("Tab")  # name
        await page.keyboard.press("Tab")  # price
        await page.keyboard.press("Control+a")
        await page.keyboard.type("15.50")
        await page.keyboard.press("Enter")
        await page.keyboard.press("2")
        candidates = [c["image_id"] for c in (await _detail(pipeline, binding["task_id"]))["result"]["bindings"][0][
            "candidates"]]
        await page.get_by_test_id("bound-image").filter(has_text=candidates[1]).wait_for()
        await page.keyboard.press("n")
        box = await page.get_by_test_id("page-canvas").bounding_box()
        await page.mouse.move(box["x"] + 80, box["y"] + 600)
        await page.mouse.down()
        await page.mouse.move(box["x"] + 400, box["y"] + 640, steps=5)
        await page.mouse.up()
        await page.locator("input[name=model]:focus").wait_for()
        await page.keyboard.type("NEW-77")
        await page.keyboard.press("Enter")
        await page.keyboard.press("i")  # and its picture, which the parser did not cut out
        await page.mouse.move(box["x"] + 450, box["y"] + 560)
        await page.mouse.down()
        await page.mouse.move(box["x"] + 560, box["y"] + 660, steps=5)
        await page.mouse.up()
        await page.get_by_test_id("bound-image").filter(has_text="picture-1").wait_for()
        await page.screenshot(path=out / "workbench-binding-review.png")
        await page.keyboard.press("?")
        await page.get_by_test_id("shortcuts").wait_for()
        await page.screenshot(path=out / "workbench-shortcuts.png")
        await page.keyboard.press("Escape")
        await page.keyboard.press("Control+Enter")
        await page.get_by_test_id("task-title").filter(has_text="SKU_REVIEW").wait_for()
        await page.screenshot(path=out / "workbench-page-review.png")
        await page.keyboard.press("l")
        await page.get_by_test_id("approve").filter(has_text="提交").wait_for()
        await page.screenshot(path=out / "workbench-zh.png")
        await page.close()  # the tab closes: the SKU review it holds goes back to the queue
        await browser.close()

    done = await _detail(pipeline, binding["task_id"])
    assert done["status"] == "COMPLETED"
    def result() -> dict:
        return pipeline.result(job_id, merchant=MERCHANT)

    reviewed = pipeline.wait(job_id, lambda j: "NEW-77" in json.dumps(result()["pages"][1]), merchant=MERCHANT)
    skus = {s["attributes"]["model"]: s for s in result()["pages"][1]["skus"]}
    assert reviewed["status"] == "PARTIAL_IMPORTED"  # page 3 still waits for its review
    assert skus["SF-1001"]["attributes"]["price"] == "15.50"
    bindings = {b["sku_id"]: b["image_id"] for b in result()["pages"][1]["bindings"]}
    assert bindings[skus["SF-1001"]["sku_id"]] == candidates[1]
    assert set(skus) == {"SF-1001", "NEW-77"}
    [picture] = [i for i in result()["pages"][1]["images"] if i["image_id"] == bindings[skus["NEW-77"]["sku_id"]]]
    assert (pipeline.storage_root / "results" / job_id / picture["path"]).is_file()


async def _detail(pipeline, task_id: str) -> dict:
    with pipeline.tasks("observer", merchant=MERCHANT) as client:
        return client.get(f"/api/v1/tasks/{task_id}").json()


def _crowded_task(pipeline, job_id: str, count: int) -> str:
    """A task whose page holds ``count`` SKU boxes (a dense parts list), first in the annotator's queue
    (dispatched to them, most urgent)."""
    engine = sa.create_engine(pipeline.database_url)
    with engine.begin() as conn:
        query = "SELECT context FROM collab.human_tasks WHERE job_id = :j ORDER BY page LIMIT 1"
        context = conn.execute(sa.text(query), {"j": job_id}).scalar_one()
        skus = [{"sku_id": f"dense_{n:04d}", "validity": "valid", "confidence": 0.5,
                 "attributes": {"model": f"P-{n:04d}", "price": "1.00"},
                 "source_bbox": [20 + (n % 20) * 28, 60 + (n // 20) * 18, 44 + (n % 20) * 28, 74 + (n // 20) * 18]}
                for n in range(count)]
        context["result"] = {**context["result"], "skus": skus, "bindings": [], "images": []}
        task_id = str(uuid.uuid4())
        conn.execute(sa.text(
            "INSERT INTO collab.human_tasks (task_id, job_id, merchant_id, page, task_type, priority, status, reason,"
            " context, assigned_to) VALUES (:t, :j, :m, :p, 'SKU_REVIEW', 0, 'CREATED', 'dense page',"
            " CAST(:c AS jsonb), (SELECT user_id FROM gateway.users WHERE username = 'ann.browser'))"),
            {"t": task_id, "j": job_id, "m": MERCHANT, "p": context["page"], "c": json.dumps(context)})
    engine.dispose()
    return task_id


async def test_a_page_with_800_boxes_opens_and_a_box_can_be_picked(pipeline, annotator, tmp_path):
    out = shots(tmp_path)
    job_id = pipeline.upload(review_catalog(tmp_path / "dense.pdf"), merchant=MERCHANT)
    pipeline.wait(job_id, lambda j: j["status"] == "PARTIAL_IMPORTED", merchant=MERCHANT)
    wait_tasks(pipeline, job_id, 2)
    crowded = _crowded_task(pipeline, job_id, 800)
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True)
        started = time.perf_counter()
        page = await logged_in(browser, pipeline, annotator)
        assert await open_task(page) == crowded
        await page.wait_for_function("performance.getEntriesByName('page-drawn').length > 0")
        first_render = time.perf_counter() - started
        assert await page.get_by_test_id("sku-row").count() < 60  # the list is virtualised
        box = await page.get_by_test_id("page-canvas").bounding_box()
        scale = box["width"] / 595
        clicked = time.perf_counter()
        await page.mouse.click(box["x"] + (20 + 5 * 28 + 10) * scale, box["y"] + (60 + 30 * 18 + 7) * scale)
        await page.locator("input[name=model]").and_(page.locator("[value='P-0605']")).wait_for()
        selected = time.perf_counter() - clicked
        for _ in range(50):
            await page.keyboard.press("j")
        await page.locator("input[name=model]").and_(page.locator("[value='P-0655']")).wait_for()
        await page.screenshot(path=out / "workbench-800-boxes.png")
        await browser.close()
    print(f"\n800 boxes: first render {first_render:.2f} s (login included), select a box {selected * 1000:.0f} ms")
