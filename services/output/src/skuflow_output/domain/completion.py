"""Job completion (INV-04): a job is done when every page has a terminal result row.

Completion is decided by counting page rows, never counters, so a redelivered or replayed
event cannot make a job complete early or twice.
"""

from __future__ import annotations

from skuflow_contracts.results import JobSummary, PageResult, ResultDocument

FAILED = "DEAD_LETTER"
FAILED_STATUSES = {FAILED, "AI_FAILED"}


def failed_page(page: int) -> PageResult:
    return PageResult(page=page, status=FAILED, page_type=None, layout=None, needs_review=True,
                      parser_backend=None, extraction_method=None)


def job_status(pages: list[PageResult]) -> str:
    if any(p.status in FAILED_STATUSES for p in pages):
        return "PARTIAL_FAILED"
    if any(p.needs_review for p in pages):
        return "PARTIAL_IMPORTED"
    return "FULL_IMPORTED"


def is_complete(total_pages: int | None, pages_recorded: int) -> bool:
    return bool(total_pages) and pages_recorded >= total_pages


def assemble(summary: JobSummary, pages: list[PageResult]) -> ResultDocument:
    return ResultDocument(job=summary, pages=sorted(pages, key=lambda p: p.page))


def valid_sku_count(document: ResultDocument) -> int:
    return sum(1 for page in document.pages for sku in page.skus if sku.validity == "valid")
