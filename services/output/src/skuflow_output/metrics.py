"""Output metrics: the pages output records and delivers (who finished them: the machine or a person,
seed-001b §3.1 #23 as a ratio of these), how full the SKUs it delivers are (#35), and how the per-page
imports fare (seed-000 §13, 001b #10, #34)."""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Sequence

from prometheus_client import Counter, Gauge

from skuflow_contracts.results import ATTRIBUTE_NAMES, SkuRecord
from skuflow_output.domain.imports import Answer
from skuflow_platform.metrics import CATEGORY_LIMIT, PAGES_PROCESSED, CappedLabel

PAGES_DELIVERED = Counter("skuflow_pages_delivered_total", "Page results delivered, by who finished them",
                          ["processed_by"])
SKU_IMPORTS = Counter("sku_import_total", "SKUs in import calls, by the receiver's answer", ["status"])
IMPORT_RETRIES = Counter("import_retry_total", "Import calls that will be tried again")
IMPORTS_FAILED = Counter("import_failed_total", "Import calls refused for good")
STALE_SKIPPED = Counter("import_stale_skipped_total", "Imports skipped after failing longer than the stale limit")
FILL_RATE = Gauge("sku_field_fill_rate", "Share of the SKUs this process delivered that have the attribute",
                  ["field", "category"])
CATEGORIES = CappedLabel(CATEGORY_LIMIT)
# Running counts since the process started, by category: SKUs delivered, and of them those with each attribute
DELIVERED: Tally[str] = Tally()
FILLED: Tally[tuple[str, str]] = Tally()


def count_page(delivered: bool, reviewed: bool) -> None:
    PAGES_PROCESSED.labels("output").inc()
    if delivered:
        PAGES_DELIVERED.labels("human" if reviewed else "machine").inc()


def count_delivered(category: str, skus: Sequence[SkuRecord]) -> None:
    """SKUs sent downstream (sku.delivered) under their job's profile category: each attribute's fill
    rate is the share of them with a value (null is empty). Kept in the process, not the database."""
    if not skus:
        return
    category = CATEGORIES(category)
    DELIVERED[category] += len(skus)
    for sku in skus:
        FILLED.update((category, name) for name in ATTRIBUTE_NAMES if getattr(sku.attributes, name) is not None)
    for name in ATTRIBUTE_NAMES:
        FILL_RATE.labels(name, category).set(FILLED[category, name] / DELIVERED[category])


def count_import(answer: Answer, sku_count: int) -> None:
    SKU_IMPORTS.labels(answer.trigger).inc(sku_count)
    if answer.trigger == "failed":
        (IMPORT_RETRIES if answer.retry else IMPORTS_FAILED).inc()
