"""Progress as the uploader sees it (seed-001b §2.4): phases, pages by state, time left; SKUs as they come."""

from skuflow_contracts.results import PageResult
from skuflow_gateway.domain.progress import page_breakdown, progress, remaining_seconds
from skuflow_gateway.domain.skus import CSV_COLUMNS, matches, sku_rows, to_csv


def test_phases_follow_the_job_and_its_pages():
    assert progress("EVALUATING", False, None, [], None).phase == "evaluating"
    running = progress("PROCESSING", False, 10, ["AI_COMPLETED"] * 4 + ["AI_PROCESSING"] * 2, 40.0)
    assert (running.phase, running.completed_pages, running.phase_detail) == ("processing", 4, "Processing page 5/10")
    assert running.estimated_remaining_sec == 60  # 4 pages in 40 s: 6 more take 60 s
    assert progress("PROCESSING", False, 2, ["AI_COMPLETED", "HUMAN_QUEUED"], 9.0).phase == "importing"
    waiting = progress("PARTIAL_IMPORTED", True, 2, ["AI_COMPLETED", "HUMAN_QUEUED"], 9.0)
    assert (waiting.phase, waiting.phase_detail) == ("human_pending", "1 pages wait for a person's review")
    assert progress("FULL_IMPORTED", True, 2, ["AI_COMPLETED"], 9.0).phase == "done"
    assert progress("PARTIAL_FAILED", True, 2, ["AI_COMPLETED", "DEAD_LETTER"], 9.0).phase == "done"


def test_pages_not_yet_started_are_pending_and_time_left_needs_a_finished_page():
    assert page_breakdown(["AI_COMPLETED", "AI_PROCESSING"], 5) == {"ai_completed": 1, "ai_processing": 1,
                                                                     "pending": 3}
    assert remaining_seconds(10, 0, 30.0) is None and remaining_seconds(None, 3, 30.0) is None


def _page(number: int, *skus: tuple[str, str, str], needs_review: bool = False) -> PageResult:
    return PageResult.model_validate({
        "page": number, "status": "AI_COMPLETED", "page_type": "A", "layout": "L4", "needs_review": needs_review,
        "parser_backend": "pymupdf", "extraction_method": "table_rule",
        "skus": [{"sku_id": sku_id, "validity": validity, "attributes": {"model": model, "price": "12.50"},
                  "source_bbox": [0, 0, 10, 10], "confidence": 0.9} for sku_id, model, validity in skus],
        "bindings": [{"sku_id": skus[0][0], "image_id": "img_1", "confidence": 0.8, "method": "nearest"}]
        if skus else []})


def test_skus_are_listed_by_page_filtered_and_exported_as_csv():
    rows = sku_rows([_page(2, ("h_p02_001", "TB 40/120", "valid")),
                     _page(1, ("h_p01_001", "SF-0001", "valid"), ("h_p01_002", "junk", "invalid"))])
    assert [r["sku_id"] for r in rows] == ["h_p01_001", "h_p01_002", "h_p02_001"]
    assert rows[0]["image_id"] == "img_1" and rows[1]["image_id"] is None
    assert [r["model"] for r in rows if matches(r, "valid", None)] == ["SF-0001", "TB 40/120"]
    assert [r["model"] for r in rows if matches(r, None, "tb 40")] == ["TB 40/120"]
    lines = to_csv(rows).splitlines()
    assert lines[0] == ",".join(CSV_COLUMNS) and lines[3].startswith("h_p02_001,2,valid,0.9,TB 40/120,")
