"""Task rows and their moves: every status change goes through ``change``, which applies the state
machine, writes the row and the audit record in the caller's transaction."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_collab.domain.dispatch import Profile, profile_of
from skuflow_collab.domain.lifecycle import COMPLETED, move
from skuflow_collab.tables import human_tasks, platform

PROFILE_DAYS = 30


async def find(conn: AsyncConnection, task_id: str, merchant_id: str, *, lock: bool = False) -> sa.Row | None:
    """The task, only if it belongs to the merchant (another merchant's task does not exist for them)."""
    query = sa.select(human_tasks).where(human_tasks.c.task_id == task_id, human_tasks.c.merchant_id == merchant_id)
    return (await conn.execute(query.with_for_update() if lock else query)).first()


async def change(conn: AsyncConnection, task: sa.Row, trigger: str, roles: tuple[str, ...], operator: str,
                 reason: str | None = None, **values: object) -> str:
    """Move ``task`` by ``trigger`` (IllegalMove / NotAllowed when it may not), setting ``values``."""
    to = move(task.status, trigger, roles)
    await conn.execute(human_tasks.update().where(human_tasks.c.task_id == task.task_id).values(status=to, **values))
    await conn.execute(platform.state_transitions.insert().values(
        entity="task", entity_id=task.task_id, from_status=task.status, to_status=to, reason=reason,
        detail={"trigger": trigger, "operator": operator}))
    return to


async def claim(conn: AsyncConnection, task_id: str, merchant_id: str, user: str, until: datetime) -> bool:
    """Lock a CREATED task for ``user`` in one statement, so of two annotators racing exactly one wins."""
    won = await conn.execute(human_tasks.update().where(
        human_tasks.c.task_id == task_id, human_tasks.c.merchant_id == merchant_id,
        human_tasks.c.status == "CREATED",
    ).values(status="PROCESSING", locked_by=user, locked_at=sa.func.now(), lock_expires_at=until,
             assigned_to=user).returning(human_tasks.c.task_id))
    if won.first() is None:
        return False
    await conn.execute(platform.state_transitions.insert().values(
        entity="task", entity_id=task_id, from_status="CREATED", to_status="PROCESSING", reason=None,
        detail={"trigger": "lock", "operator": user}))
    return True


async def team(conn: AsyncConnection, merchant_id: str) -> list[Profile]:
    """The profiles of everyone who finished a task of this merchant in the last 30 days."""
    t = human_tasks.c
    names = (await conn.execute(sa.select(t.assigned_to).distinct().where(
        t.merchant_id == merchant_id, t.status == COMPLETED, t.assigned_to.is_not(None),
        t.completed_at > sa.func.now() - sa.text(f"interval '{PROFILE_DAYS} days'")))).scalars().all()
    return [await profile(conn, name) for name in sorted(names)]


async def profile(conn: AsyncConnection, annotator: str) -> Profile:
    """The annotator's last 30 days: tasks finished, reverted since, seconds spent, tasks open now."""
    t = human_tasks.c
    finished = (await conn.execute(sa.select(
        sa.func.count(), sa.func.count().filter(t.rework_count > 0),
        sa.func.coalesce(sa.func.sum(sa.extract("epoch", t.completed_at - t.locked_at)), 0),
    ).where(t.assigned_to == annotator, t.status == COMPLETED,
            t.completed_at > sa.func.now() - sa.text(f"interval '{PROFILE_DAYS} days'")))).one()
    open_tasks = (await conn.execute(sa.select(sa.func.count()).where(
        t.locked_by == annotator, t.status == "PROCESSING"))).scalar_one()
    return profile_of(annotator, finished[0], finished[1], float(finished[2]), open_tasks)
