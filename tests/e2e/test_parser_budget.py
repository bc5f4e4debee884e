"""A page over the parser's time budget comes out as a failed page with its reason, and the job finishes."""

import json

import pytest

from skuflow_cli.catalog import generate_catalog
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.topics import PAGE_PARSED
from skuflow_platform.storage import LocalStorage
from tests.e2e.stack import offsets, records_of

pytestmark = pytest.mark.e2e
NO_TIME_AT_ALL = "0.001"  # seconds per page: no page can be parsed within it


@pytest.fixture
def impatient_parser(pipeline):
    """Only the parser restarted with a page budget no page can meet; the usual parser comes back after."""
    with pipeline.restarted(("parser",), {"SKUFLOW_PARSER_PAGE_BUDGET_SECONDS": NO_TIME_AT_ALL}):
        yield


def test_pages_over_their_budget_are_failed_with_a_reason_and_the_job_still_finishes(
        pipeline, impatient_parser, tmp_path):
    pdf = tmp_path / "catalog.pdf"
    generate_catalog(pdf, pages=2, seed=21)
    start = offsets(pipeline, PAGE_PARSED.name)[PAGE_PARSED.name]
    job_id = pipeline.upload(pdf)

    job = pipeline.wait_finished(job_id)
    assert job["status"] == "PARTIAL_FAILED" and job["user_status"] == "partial_success"
    parsed = records_of(pipeline, PAGE_PARSED, start, job_id, 2)
    storage = LocalStorage(pipeline.storage_root)
    pages = [ParsedPage.model_validate_json(storage.get(json.loads(r.value)["payload"]["ir_uri"])) for r in parsed]
    assert sorted(page.page for page in pages) == [1, 2]
    assert all(page.status == "failed" and page.failure_reason.startswith("page_timeout: page ") for page in pages)
    result = pipeline.result(job_id)
    assert [page["status"] for page in result["pages"]] == ["AI_FAILED", "AI_FAILED"]
    assert all(page["validation"]["triggered_rules"][0].startswith("parse_failed:page_timeout")
               for page in result["pages"])
