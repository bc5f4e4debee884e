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
    """None when the page needs no human; binding questions outrank general page reviews."""
    if not result.needs_review:
        return None
    ambiguous = [b.sku_id for b in result.bindings if b.is_ambiguous]
    if ambiguous:
        return TaskSpec("BINDING_REVIEW", PRIORITY_HIGH, f"ambiguous image binding for {', '.join(ambiguous)}")
    if result.validation.has_errors:
        return TaskSpec("PAGE_REVIEW", PRIORITY_NORMAL, "; ".join(result.validation.triggered_rules))
    return TaskSpec("PAGE_REVIEW", PRIORITY_NORMAL, "low classification confidence or no valid SKU")
