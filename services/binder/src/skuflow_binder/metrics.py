"""Binder metrics: images removed by dedup (seed-000 §6), and, as the stage that ends a page's
machine reading, its latency since the parser, undecided bindings and consistency findings."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

from skuflow_binder.domain.dedup import dedup_scope
from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import PageBound
from skuflow_contracts.results import ImageRecord
from skuflow_platform.metrics import PAGES_PROCESSED, PHASE_SECONDS

IMAGES_DEDUPED = Counter("image_dedup_removed_total", "Images flagged as duplicates before binding",
                         ["role", "scope"])
PAGE_LATENCY = Histogram("skuflow_page_latency_seconds", "Seconds from a page's page.parsed to its page.bound",
                         buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300))
PAGE_DURATION = Histogram("pipeline_page_duration_seconds", "Seconds from page.parsed to page.bound, by page type",
                          ["page_type"], buckets=(1, 2, 5, 10, 20, 30, 60, 120))
PAGES_BOUND = Counter("pipeline_page_processed_total", "Pages bound, by page type and status",
                      ["page_type", "status"])
AMBIGUOUS = Counter("binding_ambiguity_total", "Bindings left to a person (top candidates too close)",
                    ["layout_type"])
RULES_TRIGGERED = Counter("consistency_rule_triggered_total", "Consistency rules a page triggered", ["rule_name"])


def count_duplicates(images: list[ImageRecord]) -> None:
    for image in images:
        if image.is_duplicate:
            IMAGES_DEDUPED.labels(image.role, dedup_scope(image.role)).inc()


def count_bound(sent: EventEnvelope[PageBound], seconds: float) -> None:
    """A page bound in ``seconds``; its latency only for a first reading (a re-read after a correction
    starts long after the page was parsed)."""
    bound, result = sent.payload, sent.payload.result
    page_type = result.page_type or "none"
    PAGES_PROCESSED.labels("binder").inc()
    PHASE_SECONDS.labels("bind").observe(seconds)
    PAGES_BOUND.labels(page_type, result.status).inc()
    AMBIGUOUS.labels(result.layout or "none").inc(sum(1 for b in result.bindings if b.is_ambiguous))
    for rule in result.validation.triggered_rules:
        RULES_TRIGGERED.labels(rule.split(":", 1)[0]).inc()
    if bound.parsed_at is not None and bound.reading == 0:
        latency = max(0.0, (sent.occurred_at - bound.parsed_at).total_seconds())
        PAGE_LATENCY.observe(latency)
        PAGE_DURATION.labels(page_type).observe(latency)
