"""The review backlog as the ops page shows it: open tasks by age, in the bands the SLA steps at
(seed-001a §10.4), so a person sees at a glance how many tasks are about to escalate or be skipped;
and by job, oldest first, so the job that waits longest is looked at first."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from skuflow_collab.domain.sla import STEP_MINUTES


@dataclass(frozen=True)
class OpenTask:
    job_id: str
    status: str
    age_minutes: float


def by_age(tasks: list[OpenTask]) -> list[dict]:
    """Open tasks in each band [from, to) of minutes since they were created; the last band has no end."""
    edges = (0, *STEP_MINUTES)
    bands = list(zip(edges, (*STEP_MINUTES, None), strict=True))
    return [{"from_minutes": start, "to_minutes": end,
             "tasks": sum(1 for t in tasks if start <= t.age_minutes and (end is None or t.age_minutes < end))}
            for start, end in bands]


def by_job(tasks: list[OpenTask]) -> list[dict]:
    """Each job's open tasks and the age of its oldest, the longest waiting job first."""
    counts = Counter(t.job_id for t in tasks)
    oldest: dict[str, float] = {}
    for task in tasks:
        oldest[task.job_id] = max(oldest.get(task.job_id, 0.0), task.age_minutes)
    return [{"job_id": job, "open_tasks": counts[job], "oldest_minutes": round(minutes, 1)}
            for job, minutes in sorted(oldest.items(), key=lambda item: (-item[1], item[0]))]


def backlog(tasks: list[OpenTask]) -> dict:
    return {"open_tasks": len(tasks), "by_status": dict(sorted(Counter(t.status for t in tasks).items())),
            "by_age": by_age(tasks), "jobs": by_job(tasks)}
