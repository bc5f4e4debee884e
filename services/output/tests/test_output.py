"""Job completion by page rows, the job status it implies, and the exported result directory."""

import json

from skuflow_contracts.results import ImageRecord, JobSummary, PageResult
from skuflow_output.domain.completion import assemble, failed_page, is_complete, is_final, job_status
from skuflow_output.export import write_result


def result(page, needs_review=False, images=()):
    return PageResult(page=page, status="HUMAN_QUEUED" if needs_review else "AI_COMPLETED", page_type="C",
                      layout="L2", needs_review=needs_review, parser_backend="pymupdf",
                      extraction_method="two_stage", images=list(images))


def test_a_job_is_complete_only_when_every_page_has_a_row():
    assert not is_complete(None, 3)
    assert not is_complete(3, 2)
    assert is_complete(3, 3)


def test_job_status_reflects_failed_and_review_pages():
    assert job_status([(result(1), 1), (result(2), 1)]) == "FULL_IMPORTED"
    assert job_status([(result(1), 1), (result(2, needs_review=True), 1)]) == "PARTIAL_IMPORTED"
    assert job_status([(result(1, needs_review=True), 1), (failed_page(2), 1)]) == "PARTIAL_FAILED"


def test_a_reviewed_page_is_final_and_a_skipped_review_leaves_the_job_partial():
    doubted = result(2, needs_review=True)
    assert not is_final(doubted, 1) and is_final(doubted, 2) and is_final(result(1), 1)
    assert job_status([(result(1), 1), (doubted, 2)]) == "FULL_IMPORTED"
    skipped = doubted.model_copy(update={"status": "HUMAN_SKIPPED"})
    assert job_status([(result(1), 1), (skipped, 2)]) == "PARTIAL_IMPORTED"


def test_a_job_routed_to_people_waits_for_every_pages_review():
    assert not is_final(result(1), 1, "HUMAN_ALL") and is_final(result(1), 2, "HUMAN_ALL")
    assert job_status([(result(1), 1), (result(2), 2)], "HUMAN_ALL") == "DEGRADED_HUMAN"  # seed-001a §5.1
    assert job_status([(result(1), 2), (result(2), 2)], "HUMAN_ALL") == "FULL_IMPORTED"


def test_the_result_directory_holds_result_json_and_non_duplicate_images(tmp_path):
    images = [ImageRecord(image_id="img_1", bbox=(0, 0, 1, 1), role="PRODUCT_MAIN", short_edge=700,
                          source_uri="local://a/img_1.jpeg"),
              ImageRecord(image_id="img_2", bbox=(0, 0, 1, 1), role="LOGO", short_edge=700, is_duplicate=True,
                          source_uri="local://a/img_2.png")]
    summary = JobSummary(job_id="j", file_hash="h", route="AUTO", status="FULL_IMPORTED", total_pages=2,
                         config_version="v1")
    document = assemble(summary, [result(2), result(1, images=images)])
    blobs = {"local://a/img_1.jpeg": b"jpeg-bytes"}
    path = write_result(document, blobs.__getitem__, tmp_path)
    written = json.loads(path.read_text())
    assert [p["page"] for p in written["pages"]] == [1, 2]
    exported = written["pages"][0]["images"]
    assert exported[0]["path"] == "images/img_1.jpeg" and exported[1]["path"] is None
    assert "source_uri" not in exported[0]
    assert (tmp_path / "images" / "img_1.jpeg").read_bytes() == b"jpeg-bytes"
