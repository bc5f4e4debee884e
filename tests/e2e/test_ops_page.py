"""The operator's page and the API documentation as their users meet them, in a real headless Chromium
against the running services: an operator logs in to /workbench/ops.html and sees the jobs in flight,
the review backlog, the team by name and the dead letters; /docs draws Swagger UI with the browser cut
off from everything but this machine. SKUFLOW_SCREENSHOTS=DIR keeps the screenshots."""

import pytest
from playwright.async_api import async_playwright

from skuflow_cli.catalog import generate_catalog
from tests.e2e.review_desk import CHROMIUM, account, approve_all, log_in, logged_in, reviewed_upload, shots

pytestmark = pytest.mark.e2e
MERCHANT = "merchant-ops-page"


async def test_an_operator_sees_the_work_in_flight_on_the_ops_page(pipeline, tmp_path):
    operator = account(pipeline, "otto.ops", MERCHANT, role="ops")
    annotator = account(pipeline, "ann.ops", MERCHANT)
    for seed in (41, 42):  # two jobs waiting for people
        generate_catalog(tmp_path / f"catalog-{seed}.pdf", pages=2, seed=seed)
        reviewed_upload(pipeline, tmp_path / f"catalog-{seed}.pdf", MERCHANT)
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True)
        work = await logged_in(browser, pipeline, annotator)
        await approve_all(work, 1)  # one page reviewed, the other job's still waiting
        page = await browser.new_page(viewport={"width": 1400, "height": 950})
        await page.goto(f"{pipeline.collab}/workbench/ops.html")
        await log_in(page, operator)
        for view in ("ops-jobs", "ops-backlog", "ops-annotators", "ops-dlq"):
            await page.get_by_test_id(view).wait_for()
        await page.get_by_test_id("ops-annotators").filter(has_text=annotator).wait_for()  # by name, not id
        await page.get_by_test_id("ops-dlq-depth").wait_for()
        await page.get_by_test_id("ops-jobs").locator("tr[data-job]").first.wait_for()  # the job still waiting
        await page.screenshot(path=shots(tmp_path) / "ops-page.png", full_page=True)

        refused = await browser.new_page()  # an annotator's login reads none of it
        await refused.goto(f"{pipeline.collab}/workbench/ops.html")
        await log_in(refused, annotator)
        await refused.get_by_test_id("ops-jobs").filter(has_text="do not cover").wait_for()
        await browser.close()


async def test_the_api_documentation_draws_with_no_network_beyond_this_machine(pipeline, tmp_path):
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = await browser.new_page(viewport={"width": 1400, "height": 950})
        outside = []

        async def local_only(route):
            if route.request.url.startswith("http://127.0.0.1"):
                await route.continue_()
            else:
                outside.append(route.request.url)
                await route.abort()

        await page.route("**/*", local_only)
        await page.goto(f"{pipeline.gateway}/docs")
        await page.locator(".swagger-ui .opblock").first.wait_for()  # the operations are drawn
        assert await page.locator(".swagger-ui .opblock").count() > 20
        assert outside == []
        await page.screenshot(path=shots(tmp_path) / "api-docs-offline.png")
        await browser.close()
