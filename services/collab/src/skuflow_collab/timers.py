"""Collab's clocks: expired locks go back to the queue, and the SLA scanner escalates waiting tasks
(seed-001a §10.3–10.4). Both take rows with ``FOR UPDATE SKIP LOCKED``, so several replicas share
the work and each task moves once per step."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_collab import store
from skuflow_collab.domain.lifecycle import SYSTEM
from skuflow_collab.domain.sla import sla_step
from skuflow_collab.metrics import count_sla_step
from skuflow_collab.tables import human_tasks
from skuflow_contracts.events import PageBound
from skuflow_platform.metrics import once_committed

BATCH = 200
SLA_STATUS = {"sla_auto_complete": "AUTO_SLA", "sla_auto_resolve": "SLA_SKIPPED"}


async def expire_locks(conn: AsyncConnection, now: datetime) -> int:
    rows = (await conn.execute(sa.select(human_tasks).where(
        human_tasks.c.status == "PROCESSING", human_tasks.c.lock_expires_at < now,
    ).limit(BATCH).with_for_update(skip_locked=True))).all()
    for task in rows:
        await store.change(conn, task, "lock_timeout", (SYSTEM,), SYSTEM, f"lock of {task.locked_by} expired",
                           locked_by=None, locked_at=None, lock_expires_at=None, assigned_to=None)
    return len(rows)


async def escalate(conn: AsyncConnection, now: datetime) -> int:
    """One SLA step for every waiting task that is due; forgotten tasks end with the machine's reading,
    published as the page's review so the job is not blocked."""
    rows = (await conn.execute(sa.select(human_tasks).where(
        human_tasks.c.status.in_(("CREATED", "ESCALATED")),
    ).order_by(human_tasks.c.created_at).limit(BATCH).with_for_update(skip_locked=True))).all()
    moved = 0
    for task in rows:
        # ``difficulty`` is how sure the machine was of the page (its SKUs' mean confidence)
        step = sla_step(task.sla_level, (now - task.created_at).total_seconds() / 60, task.difficulty)
        if step is None:
            continue
        priority = 1 if step.level != "NORMAL" else task.priority
        await store.change(conn, task, step.trigger, (SYSTEM,), "AUTO_SLA", f"sla {task.sla_level} → {step.level}",
                           sla_level=step.level, priority=priority)
        once_committed(count_sla_step, task.task_type, step.trigger)
        moved += 1
        if step.trigger in SLA_STATUS and task.context is not None:
            work = PageBound.model_validate(task.context)
            await store.publish_review(conn, task, work, work.result.model_copy(
                update={"status": SLA_STATUS[step.trigger]}))
    return moved
