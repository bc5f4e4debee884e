"""Task rows and their moves: every status change goes through ``change``, which applies the state
machine, writes the row and the audit record in the caller's transaction."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_collab.domain.dispatch import Profile, profile_of
from skuflow_collab.domain.lifecycle import COMPLETED, FINAL, SYSTEM, move
from skuflow_collab.domain.queue import Clusters
from skuflow_collab.metrics import count_finished
from skuflow_collab.tables import human_tasks, people, platform, task_reverts
from skuflow_contracts.envelope import Contract
from skuflow_contracts.events import PageBound, PageReviewed, PageReviewReverted
from skuflow_contracts.results import PageResult
from skuflow_contracts.revisions import machine_revision, review_revision
from skuflow_platform.auth import Principal
from skuflow_platform.db import from_now
from skuflow_platform.metrics import once_committed
from skuflow_platform.outbox import add_to_outbox

PROFILE_DAYS = 30
PROFILE_WINDOW = from_now(-PROFILE_DAYS * 86400)


async def find(conn: AsyncConnection, task_id: str, merchant_id: str, *, lock: bool = False) -> sa.Row | None:
    """The task, only if it belongs to the merchant (another merchant's task does not exist for them)."""
    query = sa.select(human_tasks).where(human_tasks.c.task_id == task_id, human_tasks.c.merchant_id == merchant_id)
    return (await conn.execute(query.with_for_update() if lock else query)).first()


async def change(conn: AsyncConnection, task: sa.Row, trigger: str, roles: tuple[str, ...], operator: str,
                 reason: str | None = None, **values: object) -> str:
    """Move ``task`` by ``trigger`` (IllegalMove / NotAllowed when it may not), setting ``values``."""
    to = move(task.status, trigger, roles)
    await conn.execute(human_tasks.update().where(human_tasks.c.task_id == task.task_id).values(status=to, **values))
    await _audit(conn, task.task_id, task.status, to, reason, trigger, operator)
    if to in FINAL and task.status not in FINAL:
        once_committed(count_finished, task.task_type, trigger, task.created_at)
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
    await _audit(conn, task_id, "CREATED", "PROCESSING", None, "lock", user)
    return True


async def _audit(conn: AsyncConnection, task_id: str, before: str, after: str, reason: str | None, trigger: str,
                 operator: str) -> None:
    await conn.execute(platform.state_transitions.insert().values(
        entity="task", entity_id=task_id, from_status=before, to_status=after, reason=reason,
        detail={"trigger": trigger, "operator": operator}))


async def publish_skip(conn: AsyncConnection, task: sa.Row) -> None:
    """A skipped task: the machine's reading stands, as a review, so the job is not blocked by it."""
    if task.context is not None:
        work = PageBound.model_validate(task.context)
        await publish_review(conn, task, work, work.result.model_copy(update={"status": "HUMAN_SKIPPED"}))


async def publish_review(conn: AsyncConnection, task: sa.Row, work: PageBound, result: PageResult) -> None:
    """The page as the task leaves it, as the next revision of the newest reading the task has heard
    of (a revert adds one): above a re-read that came while a person held the task."""
    revision = review_revision(work.generation, task.rework_count, task.reading)
    await _publish(conn, task, work.advance(PageReviewed, task_id=task.task_id, result=result, revision=revision))


async def publish_revert(conn: AsyncConnection, task: sa.Row, reverted_by: str, reason: str) -> None:
    """A team lead reverted the task's review: what the reader learned from it is unlearned (issue 42).
    A task a newer machine reading closed had no review to learn from."""
    if task.context is not None and task.superseded_by is None:
        await _publish(conn, task, PageBound.model_validate(task.context).advance(
            PageReviewReverted, task_id=task.task_id, reverted_by=reverted_by, reason=reason))


async def _publish(conn: AsyncConnection, task: sa.Row, event: Contract) -> None:
    await add_to_outbox(conn, platform.outbox, event, job_id=task.job_id, merchant_id=task.merchant_id,
                        producer="collab", traceparent=None)


async def team(conn: AsyncConnection, merchant_id: str) -> list[Profile]:
    """The profiles of everyone who finished a task of this merchant in the last 30 days (their work
    for this merchant only)."""
    t = human_tasks.c
    names = (await conn.execute(sa.select(t.assigned_to).distinct().where(
        t.merchant_id == merchant_id, t.status == COMPLETED, t.assigned_to.is_not(None),
        t.completed_at > PROFILE_WINDOW))).scalars().all()
    return await profiles(conn, sorted(names), merchant_id)


async def profile(conn: AsyncConnection, annotator: str, merchant_id: str) -> Profile:
    return (await profiles(conn, [annotator], merchant_id))[0]


async def profiles(conn: AsyncConnection, annotators: list[str], merchant_id: str) -> list[Profile]:
    """Each annotator's last 30 days (tasks finished, reverted since, seconds spent) and tasks open now,
    in two queries whatever the number of annotators."""
    t = human_tasks.c
    finished = {row[0]: row[1:] for row in (await conn.execute(sa.select(
        t.assigned_to, sa.func.count(), sa.func.count().filter(t.rework_count > 0),
        sa.func.coalesce(sa.func.sum(sa.extract("epoch", t.completed_at - t.locked_at)), 0),
    ).where(t.merchant_id == merchant_id, t.assigned_to.in_(annotators), t.status == COMPLETED,
            t.completed_at > PROFILE_WINDOW).group_by(t.assigned_to)))}
    busy = dict((await conn.execute(sa.select(t.locked_by, sa.func.count()).where(
        t.merchant_id == merchant_id, t.locked_by.in_(annotators), t.status == "PROCESSING").group_by(
        t.locked_by))).all())
    return [profile_of(name, int(done), int(reworked), float(seconds), busy.get(name, 0))
            for name in annotators for done, reworked, seconds in [finished.get(name, (0, 0, 0))]]


async def annotator_stats(conn: AsyncConnection, annotator: str, merchant_id: str) -> dict | None:
    """One annotator's last 30 days for this merchant by task type (finished, skipped, reverted since,
    mean seconds a task), with their dispatch profile; None when they never had a task of it."""
    t = human_tasks.c
    mine = sa.and_(t.merchant_id == merchant_id, t.assigned_to == annotator)
    if (await conn.execute(sa.select(t.task_id).where(mine).limit(1))).first() is None:
        return None
    rows = (await conn.execute(sa.select(
        t.task_type, t.status, sa.func.count().label("tasks"), sa.func.count().filter(t.rework_count > 0).label(
            "reworked"), sa.func.avg(sa.extract("epoch", t.completed_at - t.locked_at)).label("seconds"),
        sa.func.max(t.completed_at).label("last")).where(  # not the tasks a newer machine reading closed
        mine, t.status.in_(FINAL), t.superseded_by.is_(None), t.completed_at > PROFILE_WINDOW).group_by(
        t.task_type, t.status))).all()
    by_type: dict[str, dict] = {}
    for row in rows:
        kind = by_type.setdefault(row.task_type, {"completed": 0, "skipped": 0, "reworked": 0,
                                                   "avg_duration_sec": None})
        if row.status == COMPLETED:
            kind.update(completed=row.tasks, reworked=row.reworked,
                        avg_duration_sec=round(float(row.seconds), 1) if row.seconds is not None else None)
        else:
            kind["skipped"] = row.tasks
    seen = await profile(conn, annotator, merchant_id)
    return {"annotator": annotator, "window_days": PROFILE_DAYS, "profile": asdict(seen), "by_task_type": by_type,
            "last_finished_at": max((row.last for row in rows), default=None)}


async def supersede_earlier_readings(conn: AsyncConnection, job_id: str, page: int, generation: int) -> None:
    """Skip the page's open tasks of readings before ``generation`` (a full reprocess read it again);
    nothing is published for them: the new reading speaks for the page."""
    t = human_tasks.c
    earlier = sa.func.coalesce(t.context["generation"].as_integer(), 0) < generation
    stale = (await conn.execute(sa.select(human_tasks).where(
        t.job_id == job_id, t.page == page, t.status.not_in(FINAL), earlier).with_for_update())).all()
    for task in stale:
        await change(conn, task, "supersede", (SYSTEM,), SYSTEM, "a full reprocess read the page again",
                     locked_by=None, lock_expires_at=None, completed_at=sa.func.now(),
                     superseded_by=machine_revision(generation))


async def page_tasks(conn: AsyncConnection, job_id: str, page: int, generation: int) -> list[sa.Row]:
    """The page's tasks of one generation, locked (a person's lock, skip or completion waits for the
    reading's step, and the other way round)."""
    t = human_tasks.c
    return list((await conn.execute(sa.select(human_tasks).where(
        t.job_id == job_id, t.page == page, sa.func.coalesce(t.context["generation"].as_integer(), 0) == generation,
    ).order_by(t.created_at).with_for_update())).all())


def reading_values(work: PageBound, difficulty: float) -> dict[str, object]:
    """The columns a task takes from the machine reading it starts from."""
    return {"context": work.model_dump(mode="json"), "layout": work.layout, "reading": work.reading,
            "difficulty": difficulty}


async def take_reading(conn: AsyncConnection, task: sa.Row, **values: object) -> None:
    """A waiting task starts from a newer reading of its page (``reading_values``); or, a held one,
    remembers its number."""
    await conn.execute(human_tasks.update().where(human_tasks.c.task_id == task.task_id).values(**values))


async def clusters(conn: AsyncConnection, merchant_id: str, job_ids: set[str]) -> Clusters:
    """How many open tasks of each of these jobs share each layout signature."""
    t = human_tasks.c
    rows = await conn.execute(sa.select(t.job_id, t.layout, sa.func.count()).where(
        t.merchant_id == merchant_id, t.job_id.in_(job_ids), t.layout.is_not(None), t.status.not_in(FINAL),
    ).group_by(t.job_id, t.layout))
    return {(job_id, layout): count for job_id, layout, count in rows}


async def remember_person(conn: AsyncConnection, who: Principal) -> None:
    """Keep the name the caller's login gives them, so that people are shown by name, not by id."""
    stmt = pg_insert(people).values(merchant_id=who.merchant_id, user_id=who.user_id, name=who.display_name)
    await conn.execute(stmt.on_conflict_do_update(index_elements=[people.c.merchant_id, people.c.user_id],
                                                  set_={"name": stmt.excluded.name, "last_seen_at": sa.func.now()}))


async def record_revert(conn: AsyncConnection, task: sa.Row, reverted_by: str, reason: str) -> None:
    """The revert of ``task`` (as it was before it), with the correction it undid."""
    await conn.execute(task_reverts.insert().values(
        task_id=task.task_id, rework=task.rework_count + 1, annotator=task.assigned_to, reverted_by=reverted_by,
        reason=reason, patch=task.result))


async def last_revert(conn: AsyncConnection, task: sa.Row) -> dict | None:
    """What a rework's annotator is shown: who reverted the task, when and why, and the correction
    it undid, by whom (people by name where their login gave one)."""
    found = (await conn.execute(sa.select(task_reverts).where(task_reverts.c.task_id == task.task_id).order_by(
        task_reverts.c.rework.desc()).limit(1))).first()
    if found is None:
        return None
    names = await names_of(conn, task.merchant_id, [found.annotator or "", found.reverted_by])
    return {"count": task.rework_count, "reason": found.reason, "reverted_at": found.reverted_at.isoformat(),
            "reverted_by": names.get(found.reverted_by, found.reverted_by),
            "previous_annotator": names.get(found.annotator, found.annotator) if found.annotator else None,
            "previous_correction": found.patch}


async def names_of(conn: AsyncConnection, merchant_id: str, user_ids: list[str]) -> dict[str, str]:
    """The names their logins gave these people (ids are opaque: people are shown by name)."""
    return dict((await conn.execute(sa.select(people.c.user_id, people.c.name).where(
        people.c.merchant_id == merchant_id, people.c.user_id.in_(user_ids)))).all())
