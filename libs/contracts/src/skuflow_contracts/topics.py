"""Kafka topic names: the only place in skuflow where they are spelled out.

Names follow ``skuflow.<entity>.<event>.v<N>``. A breaking change adds a ``v2`` topic next to
``v1``. Every consumed topic has a dead-letter twin ``<topic>.dlq``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Topic:
    """A topic and how many partitions it needs (page topics fan out, so they get more)."""

    name: str
    partitions: int = 6

    @property
    def dlq(self) -> str:
        return f"{self.name}.dlq"

    def __str__(self) -> str:
        return self.name


JOB_CREATED = Topic("skuflow.job.created.v1", partitions=3)
JOB_ROUTED = Topic("skuflow.job.routed.v1", partitions=3)
JOB_COMPLETED = Topic("skuflow.job.completed.v1", partitions=3)
JOB_FAILED = Topic("skuflow.job.failed.v1", partitions=3)
JOB_CANCELLED = Topic("skuflow.job.cancelled.v1", partitions=3)
JOB_CANCEL_CONFIRMED = Topic("skuflow.job.cancel-confirmed.v1", partitions=3)
JOB_DELETED = Topic("skuflow.job.deleted.v1", partitions=3)
PAGE_PARSE_REQUESTED = Topic("skuflow.page.parse-requested.v1")
PAGE_PARSED = Topic("skuflow.page.parsed.v1")
PAGE_CLASSIFIED = Topic("skuflow.page.classified.v1")
PAGE_EXTRACTED = Topic("skuflow.page.extracted.v1")
PAGE_BOUND = Topic("skuflow.page.bound.v1")
PAGE_REVIEWED = Topic("skuflow.page.reviewed.v1")
PAGE_REVIEW_REVERTED = Topic("skuflow.page.review-reverted.v1")
PAGE_FAILED = Topic("skuflow.page.failed.v1")
PAGE_IMPORTED = Topic("skuflow.page.imported.v1")
TASK_CREATED = Topic("skuflow.task.created.v1", partitions=3)
SKU_DELIVERED = Topic("skuflow.sku.delivered.v1")
SKU_SUPERSEDED = Topic("skuflow.sku.superseded.v1")
PROFILE_PUBLISHED = Topic("skuflow.profile.published.v1", partitions=1)

EVENT_TOPICS: tuple[Topic, ...] = (
    JOB_CREATED,
    JOB_ROUTED,
    JOB_COMPLETED,
    JOB_FAILED,
    JOB_CANCELLED,
    JOB_CANCEL_CONFIRMED,
    JOB_DELETED,
    PAGE_PARSE_REQUESTED,
    PAGE_PARSED,
    PAGE_CLASSIFIED,
    PAGE_EXTRACTED,
    PAGE_BOUND,
    PAGE_REVIEWED,
    PAGE_REVIEW_REVERTED,
    PAGE_FAILED,
    PAGE_IMPORTED,
    TASK_CREATED,
    SKU_DELIVERED,
    SKU_SUPERSEDED,
    PROFILE_PUBLISHED,
)


def all_topic_names() -> list[tuple[str, int]]:
    """Every topic to create, DLQs included, as (name, partitions)."""
    names: list[tuple[str, int]] = []
    for topic in EVENT_TOPICS:
        names.append((topic.name, topic.partitions))
        names.append((topic.dlq, 1))
    return names
