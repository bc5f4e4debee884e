"""Parser metrics (C10: a backend failure is counted, never swallowed).

The backends count inside the page pool's worker processes, whose registries nobody scrapes: each
task sends back what its worker counted (``worker_counts``) and the service adds it to the same
counters here (``add_worker_counts``); docs/metrics.md says why this and not multiprocess mode.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

from prometheus_client import REGISTRY, Counter
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

PARSER_USED = Counter("pipeline_parser_used_total", "Pages parsed, by the backend whose result was kept",
                      ["backend"])
PARSER_FAILURES = Counter("pipeline_parser_failure_total", "Backend failures on a page", ["backend"])
OCR_FALLBACKS = Counter("pipeline_parser_ocr_fallback_total", "Pages sent to OCR, by reason", ["reason"])
RASTERIZE_TIMEOUTS = Counter("image_rasterize_timeout_total", "Picture regions not rasterized within budget")

WORKER_COUNTERS = {family.name: counter for counter in (PARSER_USED, PARSER_FAILURES, OCR_FALLBACKS,
                                                        RASTERIZE_TIMEOUTS) for family in counter.collect()}
Counts = dict[tuple[str, tuple[tuple[str, str], ...]], float]  # (counter, its labels) → count


def worker_counts() -> Counts:
    """Everything this process counted so far on the worker counters."""
    return {(family.name, tuple(sorted(sample.labels.items()))): sample.value
            for counter in WORKER_COUNTERS.values() for family in counter.collect()
            for sample in family.samples if sample.name == f"{family.name}_total"}


def add_worker_counts(counts: Counts) -> None:
    for (name, labels), amount in counts.items():
        counter = WORKER_COUNTERS[name]
        (counter.labels(**dict(labels)) if labels else counter).inc(amount)


PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


class Pool(Protocol):
    def worker_pids(self) -> list[int]: ...


class WorkerMemory(Collector):
    """``skuflow_parser_worker_rss_bytes``: each live pool worker's resident memory, read from /proc at
    scrape, by slot (0..N-1: bounded however often workers are recycled or replaced)."""

    def __init__(self) -> None:
        self.pools: weakref.WeakSet[Pool] = weakref.WeakSet()

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily("skuflow_parser_worker_rss_bytes", "Resident memory of each page-pool worker",
                                   labels=["worker"])
        pids = sorted(pid for pool in list(self.pools) for pid in pool.worker_pids())
        for slot, pid in enumerate(pids):
            try:
                resident_pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
            except (OSError, IndexError, ValueError):  # the worker exited meanwhile
                continue
            family.add_metric([str(slot)], resident_pages * PAGE_SIZE)
        yield family


WORKER_MEMORY = WorkerMemory()
REGISTRY.register(WORKER_MEMORY)
