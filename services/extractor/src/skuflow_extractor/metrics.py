"""Extractor metrics (seed-000 §13): what each reading found, how it fell back, and how sure the
reader was, so a drop in confidence shows on a dashboard before it shows in review queues."""

from __future__ import annotations

import re

from prometheus_client import Counter, Histogram

from skuflow_extractor.domain.extraction import Extraction
from skuflow_platform.metrics import PAGES_PROCESSED, PHASE_SECONDS

CONFIDENCE_BUCKETS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0)
SKUS_EXTRACTED = Counter("sku_extracted_total", "SKUs read, by validity and extraction method", ["validity", "method"])
FALLBACKS = Counter("sku_extraction_fallback_total", "Readings that fell back, by reason", ["reason"])
SKU_CONFIDENCE = Histogram("skuflow_reader_sku_confidence", "The reader's confidence of each SKU",
                           buckets=CONFIDENCE_BUCKETS)
PAGE_CONFIDENCE = Histogram("skuflow_reader_page_confidence", "The reader's confidence that a page is read "
                            "whole and right", buckets=CONFIDENCE_BUCKETS)
CROSS_PAGE_MERGES = Counter("cross_page_merge_total", "Pages whose table continued the previous page's")
CROSS_PAGE_DEFERRED = Counter("cross_page_deferred_total", "Pages held until the previous page was read")


def fallback_kind(reason: str) -> str:
    """``invalid_ratio=0.53`` → ``invalid_ratio``, ``exception:ValueError`` → ``exception``: a bounded label."""
    return re.split(r"[=:]", reason, maxsplit=1)[0]


def count_reading(extraction: Extraction, seconds: float) -> None:
    """A page read in ``seconds`` (the rules, the reader and the model, if any)."""
    PAGES_PROCESSED.labels("extractor").inc()
    PHASE_SECONDS.labels("sku_extract").observe(seconds)
    for sku in extraction.skus:
        SKUS_EXTRACTED.labels(sku.validity, extraction.method or "none").inc()
        SKU_CONFIDENCE.observe(sku.confidence)
    if extraction.confidence is not None:
        PAGE_CONFIDENCE.observe(extraction.confidence)
    if extraction.fallback_reason:
        FALLBACKS.labels(fallback_kind(extraction.fallback_reason)).inc()
    if extraction.merged_from is not None:
        CROSS_PAGE_MERGES.inc()
