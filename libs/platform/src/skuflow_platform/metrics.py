"""Prometheus metrics every service exposes on /metrics."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from functools import partial

from prometheus_client import Counter, Gauge, Histogram

from skuflow_contracts.revisions import outranks

EVENTS_CONSUMED = Counter(
    "skuflow_events_consumed_total", "Events handled, by outcome", ["topic", "outcome"]
)
HANDLER_SECONDS = Histogram("skuflow_handler_seconds", "Time spent handling one event", ["topic"])
DEAD_LETTERS = Counter("skuflow_dead_letters_total", "Messages sent to a DLQ", ["topic"])
OUTBOX_PUBLISHED = Counter("skuflow_outbox_published_total", "Outbox rows relayed to Kafka", ["topic"])
OUTBOX_PENDING = Gauge("skuflow_outbox_pending", "Outbox rows not yet relayed at the last poll")
CONSUMER_LAG = Gauge("skuflow_consumer_lag", "Messages not yet consumed by a consumer group", ["group", "topic"])
STORAGE_FREE = Gauge("skuflow_storage_free_ratio", "Free share of the file store's filesystem (0-1)")
DB_POOL_USAGE = Gauge("db_connection_pool_usage", "Database connections in use / pool capacity")
PAGES_PROCESSED = Counter("skuflow_pages_processed_total", "Pages a stage finished", ["stage"])
PHASE_SECONDS = Histogram("pipeline_phase_duration_seconds", "Seconds a page spent in one phase", ["phase"],
                          buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60))
INVARIANT_VIOLATIONS = Counter("invariant_violation_total", "What an invariant's guard refused or found broken "
                               "at run time (seed-001a INV-01..12)", ["invariant_id"])
OTHER_LABEL = "other"  # the label value of what a capped label no longer keeps apart
UNKNOWN_LABEL = "unknown"  # a label value not known (yet), e.g. the category of a profile not heard of
CATEGORY_LIMIT = 50  # merchants name categories freely: the category values one process keeps as labels


def count_outranked(new: int, kept: int) -> None:
    """INV-07: revision ``new`` of a page was refused because the one kept outranks it (a late event);
    the same revision again is a repeat, not counted."""
    if outranks(kept, new):
        INVARIANT_VIOLATIONS.labels("INV-07").inc()


class CappedLabel:
    """A label whose values come from data (a merchant's category name): the first ``limit`` values
    this process sees are kept, later ones read ``other``, so a metric's series stay bounded."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.seen: set[str] = set()

    def __call__(self, value: str) -> str:
        if value not in self.seen and len(self.seen) >= self.limit:
            return OTHER_LABEL
        self.seen.add(value)
        return value


_UNCOMMITTED: ContextVar[list[Callable[[], None]] | None] = ContextVar("skuflow_uncommitted_counts", default=None)


def once_committed(count: Callable[..., None], *args: object) -> None:
    """Count what a transaction did when it commits, not while it runs: an attempt that rolls back
    (and is retried, or dead-lettered) counts nothing, so a page retried three times is one page
    processed. Outside a transaction, at once."""
    pending = _UNCOMMITTED.get()
    if pending is None:
        count(*args)
    else:
        pending.append(partial(count, *args))


@contextlib.contextmanager
def counts_held() -> Iterator[list[Callable[[], None]]]:
    """Hold the ``once_committed`` counts made inside; the caller runs them once its work committed."""
    token = _UNCOMMITTED.set([])
    try:
        yield _UNCOMMITTED.get()
    finally:
        _UNCOMMITTED.reset(token)
