"""Prometheus metrics every service exposes on /metrics."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

EVENTS_CONSUMED = Counter(
    "skuflow_events_consumed_total", "Events handled, by outcome", ["topic", "outcome"]
)
HANDLER_SECONDS = Histogram("skuflow_handler_seconds", "Time spent handling one event", ["topic"])
DEAD_LETTERS = Counter("skuflow_dead_letters_total", "Messages sent to a DLQ", ["topic"])
OUTBOX_PUBLISHED = Counter("skuflow_outbox_published_total", "Outbox rows relayed to Kafka", ["topic"])
OUTBOX_PENDING = Gauge("skuflow_outbox_pending", "Outbox rows not yet relayed at the last poll")
