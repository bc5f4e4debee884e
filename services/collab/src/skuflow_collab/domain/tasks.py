"""Which human task a page needs, and how urgent it is."""

from __future__ import annotations

from dataclasses import dataclass

from skuflow_contracts.results import PageResult

PRIORITY_HIGH, PRIORITY_NORMAL = 1, 2


@dataclass(frozen=True)
class TaskSpec:
    task_type: str
    priority: int
    reason: str


def task_for(result: PageResult) -> TaskSpec | None:
    """None when the page needs no human; a page nothing could be read from needs a person to
    annotate it whole (seed-000 §8.2); binding questions outrank general page reviews."""
    if not result.needs_review:
        return None
    if result.extraction_method == "final_fallback":
        return TaskSpec("FULL_PAGE_ANNOTATION", PRIORITY_HIGH, result.fallback_reason or "all_extraction_failed")
    ambiguous = [b.sku_id for b in result.bindings if b.is_ambiguous]
    if ambiguous:
        return TaskSpec("BINDING_REVIEW", PRIORITY_HIGH, f"ambiguous image binding for {', '.join(ambiguous)}")
    reasons = result.validation.triggered_rules or ["low classification confidence"]
    return TaskSpec("PAGE_REVIEW", PRIORITY_NORMAL, "; ".join(reasons))
