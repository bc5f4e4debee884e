"""Output metrics: the pages output records and delivers (who finished them: the machine or a person,
seed-001b §3.1 #23 as a ratio of these), and how the per-page imports fare (seed-000 §13, 001b #10, #34)."""

from __future__ import annotations

from prometheus_client import Counter

from skuflow_output.domain.imports import Answer
from skuflow_platform.metrics import PAGES_PROCESSED

PAGES_DELIVERED = Counter("skuflow_pages_delivered_total", "Page results delivered, by who finished them",
                          ["processed_by"])
SKU_IMPORTS = Counter("sku_import_total", "SKUs in import calls, by the receiver's answer", ["status"])
IMPORT_RETRIES = Counter("import_retry_total", "Import calls that will be tried again")
IMPORTS_FAILED = Counter("import_failed_total", "Import calls refused for good")
STALE_SKIPPED = Counter("import_stale_skipped_total", "Imports skipped after failing longer than the stale limit")


def count_page(delivered: bool, reviewed: bool) -> None:
    PAGES_PROCESSED.labels("output").inc()
    if delivered:
        PAGES_DELIVERED.labels("human" if reviewed else "machine").inc()


def count_import(answer: Answer, sku_count: int) -> None:
    SKU_IMPORTS.labels(answer.trigger).inc(sku_count)
    if answer.trigger == "failed":
        (IMPORT_RETRIES if answer.retry else IMPORTS_FAILED).inc()
