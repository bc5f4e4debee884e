"""Collab metrics: the review backlog and the SLA it is held to (seed-001b §3.1 #12–14; the runbook's
alert levels 50 / 100 / 200 waiting tasks are drawn on ``skuflow_review_backlog``)."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from prometheus_client import Counter, Gauge, Histogram
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_collab.domain.lifecycle import FINAL
from skuflow_collab.tables import human_tasks

BACKLOG = Gauge("skuflow_review_backlog", "Human tasks not finished", ["task_type", "status"])
SLA_BREACHES = Counter("skuflow_review_sla_breaches_total", "SLA deadlines passed by waiting tasks, by the step "
                       "taken", ["step"])
ESCALATED = Counter("human_task_escalated_total", "Tasks escalated to a team lead", ["task_type"])
TASK_SECONDS = Histogram("human_task_duration_seconds", "Seconds from a task's creation to its end",
                         ["task_type", "action"], buckets=(60, 300, 900, 1800, 3600, 7200, 10800, 21600, 86400))
ESCALATION = "sla_timeout"  # the SLA step that hands a task to a team lead


async def measure_backlog(conn: AsyncConnection) -> None:
    t = human_tasks.c
    rows = (await conn.execute(sa.select(t.task_type, t.status, sa.func.count()).where(
        t.status.not_in(FINAL)).group_by(t.task_type, t.status))).all()
    BACKLOG.clear()
    for task_type, status, count in rows:
        BACKLOG.labels(task_type, status).set(count)


def count_sla_step(task_type: str, trigger: str) -> None:
    SLA_BREACHES.labels(trigger).inc()
    if trigger == ESCALATION:
        ESCALATED.labels(task_type).inc()


def count_finished(task_type: str, trigger: str, created_at: datetime) -> None:
    TASK_SECONDS.labels(task_type, trigger).observe((datetime.now(UTC) - created_at).total_seconds())
