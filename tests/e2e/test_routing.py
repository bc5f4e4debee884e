"""Every routing outcome end to end on the real Kafka, Postgres and services, each explained by
``GET /jobs/{id}/evaluation``: AUTO, HYBRID (doubted pages reviewed), HUMAN_ALL (DEGRADED_HUMAN),
an all-blank document, EVAL_FAILED, and the cached evaluation of a re-upload."""

from pathlib import Path

import psycopg
import pymupdf
import pytest

from tests.e2e.stack import tasks_of

pytestmark = pytest.mark.e2e
GOLDEN = Path(__file__).parents[1] / "golden" / "generated"


def evaluation(pipeline, job_id: str) -> dict:
    with pipeline.client() as client:
        response = client.get(f"/api/v1/jobs/{job_id}/evaluation")
    assert response.status_code == 200, response.text
    return response.json()


def explained(report: dict, route: str) -> None:
    assert report["route"] == route and f"→ {route}" in report["route_reason"]
    assert set(report["thresholds"]) == {"A", "PV", "B"}
    assert abs(sum(report["weights_snapshot"].values()) - 1) < 1e-6


def test_a_clean_catalog_goes_auto_and_a_reupload_reuses_its_evaluation(pipeline):
    pdf = GOLDEN / "g06_zh_price_list.pdf"
    first, again = pipeline.upload(pdf), pipeline.upload(pdf)
    for job_id in (first, again):
        job = pipeline.wait_finished(job_id)
        assert (job["status"], job["route"], job["degrade_reason"]) == ("FULL_IMPORTED", "AUTO", None)
    report = evaluation(pipeline, first)
    explained(report, "AUTO")
    assert report["c_doc"] >= report["thresholds"]["A"] and len(report["sampling"]["pages"]) == 8
    assert set(report["dimension_scores"]) == set(report["weights_snapshot"])
    assert evaluation(pipeline, again) | {"job_id": first} == report
    with psycopg.connect(pipeline.database_url.replace("+psycopg", "")) as conn:
        rows = conn.execute("SELECT count(*) FROM evaluator.evaluations WHERE report->>'c_doc' = %s",
                            (str(report["c_doc"]),)).fetchone()[0]
    assert rows == 1


def test_a_catalog_with_a_scanned_page_goes_hybrid_and_that_page_is_reviewed(pipeline):
    job_id = pipeline.upload(GOLDEN / "g11_en_price_list.pdf")
    job = pipeline.wait(job_id, lambda j: j["status"] == "PARTIAL_IMPORTED")
    assert job["route"] == "HYBRID"
    report = evaluation(pipeline, job_id)
    explained(report, "HYBRID")
    assert list(report["review_pages"]) == ["2"] and report["page_scores"]["2"] < report["thresholds"]["PV"]
    page = pipeline.result(job_id)["pages"][1]
    assert page["needs_review"] and any(r.startswith("evaluation: page score") for r in page["review_reasons"])
    assert [t["page"] for t in tasks_of(pipeline, job_id, 1)] == [2]


def test_a_scanned_catalog_degrades_to_people_with_a_task_per_page(pipeline):
    job_id = pipeline.upload(GOLDEN / "g30_mixed_dense.pdf")
    job = pipeline.wait(job_id, lambda j: j["status"] == "DEGRADED_HUMAN", timeout=240)
    assert (job["route"], job["user_status"], job["degrade_reason"]) == ("HUMAN_ALL", "needs_manual",
                                                                          "low_confidence")
    assert job["error_message"] is None
    report = evaluation(pipeline, job_id)
    explained(report, "HUMAN_ALL")
    assert report["c_doc"] < report["thresholds"]["B"] and report["prescan_penalties"][0]["rule"] == "ocr_rate_low"
    tasks = tasks_of(pipeline, job_id, 5, timeout=240)  # each page's task waits for its OCR (about 15 s a page)
    assert {t["task_type"] for t in tasks} == {"DOCUMENT_ANNOTATION"} and [t["page"] for t in tasks] == [1, 2, 3, 4, 5]


def test_an_all_blank_document_is_degraded_at_once(pipeline, tmp_path):
    pdf = tmp_path / "blank.pdf"
    doc = pymupdf.open()
    for _ in range(3):
        doc.new_page()
    doc.save(pdf)
    job_id = pipeline.upload(pdf)
    job = pipeline.wait(job_id, lambda j: j["status"] == "DEGRADED_HUMAN")
    assert (job["route"], job["degrade_reason"]) == ("HUMAN_ALL", "prescan_reject:all_blank")
    report = evaluation(pipeline, job_id)
    assert report["route"] == "HUMAN_ALL" and report["blank_pages"] == [1, 2, 3]
    assert "every page is blank" in report["route_reason"]


@pytest.fixture
def hasty_evaluator(pipeline):
    """The evaluator restarted with a budget no evaluation can meet; the usual one comes back after."""
    with pipeline.restarted(("evaluator",), {"SKUFLOW_EVALUATION_BUDGET_SECONDS": "0.001"}):
        yield


def test_an_evaluation_that_fails_ends_the_job_eval_failed_with_a_reason(pipeline, hasty_evaluator):
    job_id = pipeline.upload(GOLDEN / "g40_en_dense.pdf")
    job = pipeline.wait_finished(job_id)
    assert (job["status"], job["user_status"]) == ("EVAL_FAILED", "failed")
    assert "could not be evaluated" in job["error_message"]
    report = evaluation(pipeline, job_id)
    assert (report["status"], report["route"], report["degrade_reason"]) == ("EVAL_FAILED", None, "eval_failed")
