"""Which human task a page needs, and how urgent it is (seed-001a §10.2).

One task per page, the most pressing kind: a page nothing was read from is annotated whole; an
image binding the layout cannot decide outranks the rest; then SKUs with attributes waiting for
confirmation, pages doubted only for their classification, and SKU reviews. A job routed to
people (HUMAN_ALL) makes every page a document-annotation task, pre-filled with the machine's reading.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from skuflow_contracts.results import PageResult

PRIORITY_HIGH, PRIORITY_NORMAL = 1, 2
CLASSIFICATION = "classification:"
REASONS_APART = "; "  # a task's reason is its page's reasons joined by this


@dataclass(frozen=True)
class TaskSpec:
    task_type: str
    priority: int
    reason: str


def task_for(result: PageResult, route: str = "AUTO") -> TaskSpec | None:
    """None when the page needs no human."""
    reasons = result.review_reasons or result.validation.triggered_rules
    why = REASONS_APART.join(reasons)
    if route == "HUMAN_ALL":
        return TaskSpec("DOCUMENT_ANNOTATION", PRIORITY_NORMAL, why or "the document is routed to people")
    if not result.needs_review:
        return None
    if result.extraction_method == "final_fallback" or (result.page_type in ("A", "B", "C") and not result.skus):
        return TaskSpec("FULL_PAGE_ANNOTATION", PRIORITY_HIGH, result.fallback_reason or why or "nothing_read")
    ambiguous = [b.sku_id for b in result.bindings if b.is_ambiguous]
    if ambiguous:
        return TaskSpec("BINDING_REVIEW", PRIORITY_HIGH, f"ambiguous image binding for {', '.join(ambiguous)}")
    pending = [s.sku_id for s in result.skus if s.status == "PENDING_CONFIRMATION"]
    if pending:
        return TaskSpec("SKU_CONFIRM", PRIORITY_NORMAL, f"custom attributes to confirm on {', '.join(pending)}")
    if reasons and all(r.startswith(CLASSIFICATION) for r in result.review_reasons):
        return TaskSpec("CLASSIFICATION_REVIEW", PRIORITY_NORMAL, why)
    return TaskSpec("SKU_REVIEW", PRIORITY_NORMAL, why or "low confidence")


def task_id_of(job_id: str, page: int, task_type: str, generation: int = 0, reading: int = 0) -> str:
    """One id per page, task type and reading (a full reprocess's, a re-read's: a new task), stable for
    redeliveries; the first reading's is as it always was."""
    read = (f"/g{generation}" if generation else "") + (f"/r{reading}" if reading else "")
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{job_id}/{page}/{task_type}{read}"))
