"""Which waiting task an annotator is offered first (seed-001a §7.28; issue 42 item 3).

Their own first (one they hold, then one dispatched to them), then the most urgent (the SLA raises a
task's priority as it waits), then the job waiting longest. Within a job the most useful question
comes first: the page whose correction the reader will apply to the most other pages, i.e. the
largest cluster of the job's open tasks sharing its layout signature, and of those the page the
machine was least sure of; then the oldest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

Clusters = Mapping[tuple[str, str], int]  # (job_id, layout) → the job's open tasks of that layout


@dataclass(frozen=True)
class Waiting:
    task_id: str
    job_id: str
    layout: str | None  # the page's layout signature
    standing: int  # 0: held by the annotator, 1: dispatched to them, 2: the public queue
    priority: int
    difficulty: float  # the machine's page confidence (its SKUs' mean)
    created_at: datetime


def similar_pages(job_id: str, layout: str | None, is_open: bool, clusters: Clusters) -> int:
    """The job's other open tasks of the page's layout: the pages its correction will be applied to."""
    if layout is None:
        return 0
    return clusters.get((job_id, layout), 0) - (1 if is_open else 0)


def first(waiting: list[Waiting], clusters: Clusters) -> Waiting | None:
    since: dict[str, datetime] = {}
    for task in waiting:
        since[task.job_id] = min(since.get(task.job_id, task.created_at), task.created_at)
    return min(waiting, default=None, key=lambda task: (
        task.standing, task.priority, since[task.job_id], task.job_id,
        -similar_pages(task.job_id, task.layout, True, clusters), task.difficulty, task.created_at, task.task_id))
