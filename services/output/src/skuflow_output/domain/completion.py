"""Job completion (INV-04): a job is done when every page has a terminal result row.

Completion is decided by counting page rows, never counters, so a redelivered or replayed
event cannot make a job complete early or twice. A page the machine doubted is not final until a
person has reviewed it (a review's revision, skuflow_contracts.revisions): its SKUs wait, and the
job stays PARTIAL_IMPORTED until the last review, then becomes FULL_IMPORTED (seed-001a §5.1
``import_partial``). Only the pages of the job's latest generation (full reprocess) count.
"""

from __future__ import annotations

from skuflow_contracts.results import DEAD_LETTER, FAILED_PAGE_STATUSES, JobSummary, PageResult, ResultDocument
from skuflow_contracts.revisions import is_review

CANCELLED = "CANCELLED"  # the job was cancelled: nothing more of it goes downstream
UNREVIEWED_STATUSES = {"HUMAN_SKIPPED", "SLA_SKIPPED"}  # the task ended without a person's reading


def is_final(result: PageResult, revision: int, route: str | None = "AUTO") -> bool:
    """May the page's SKUs go downstream? When the machine was sure, or a review has come back; a
    job routed to people (HUMAN_ALL) waits for the review of every page."""
    return is_review(revision) or (not result.needs_review and route != "HUMAN_ALL")


def failed_page(page: int) -> PageResult:
    return PageResult(page=page, status=DEAD_LETTER, page_type=None, layout=None, needs_review=True,
                      parser_backend=None, extraction_method=None)


def job_status(pages: list[tuple[PageResult, int]], route: str | None = "AUTO") -> str:
    """From every page's result and revision: failed pages, pages still waiting for (or skipped by)
    review (DEGRADED_HUMAN for a job routed to people, seed-001a §5.1), or everything imported."""
    if any(p.status in FAILED_PAGE_STATUSES for p, _ in pages):
        return "PARTIAL_FAILED"
    if any(not is_final(p, revision, route) or p.status in UNREVIEWED_STATUSES for p, revision in pages):
        return "DEGRADED_HUMAN" if route == "HUMAN_ALL" else "PARTIAL_IMPORTED"
    return "FULL_IMPORTED"


def is_complete(total_pages: int | None, pages_recorded: int) -> bool:
    return bool(total_pages) and pages_recorded >= total_pages


def assemble(summary: JobSummary, pages: list[PageResult]) -> ResultDocument:
    return ResultDocument(job=summary, pages=sorted(pages, key=lambda p: p.page))


def delivered_part(pages: list[PageResult], delivered: set[tuple[int, str]]) -> list[PageResult]:
    """What of the pages went downstream, as (page, sku_id) in ``delivered``: a cancelled job's result
    holds the pages that delivered, each with only the SKUs it delivered (and their bindings)."""
    part = []
    for page in pages:
        skus = [sku for sku in page.skus if (page.page, sku.sku_id) in delivered]
        if skus:
            kept = {sku.sku_id for sku in skus}
            part.append(page.model_copy(update={
                "skus": skus, "bindings": [binding for binding in page.bindings if binding.sku_id in kept]}))
    return part


def valid_sku_count(document: ResultDocument) -> int:
    return sum(1 for page in document.pages for sku in page.skus if sku.validity == "valid")
