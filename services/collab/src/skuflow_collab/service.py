"""Collab service wiring: page.bound (needs_review) → a human task and task.created, a re-read of the
page after a correction → its waiting task starts from it or is closed (domain/readings.py); the
task API; lock expiry and SLA escalation on a clock."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_collab import store
from skuflow_collab.api import routes
from skuflow_collab.domain import dispatch
from skuflow_collab.domain.document import global_attributes
from skuflow_collab.domain.lifecycle import SYSTEM
from skuflow_collab.domain.readings import Step, closing_reason, step
from skuflow_collab.domain.tasks import PRIORITY_HIGH, TaskSpec, task_for, task_id_of
from skuflow_collab.feedback import suggest
from skuflow_collab.metrics import measure_backlog
from skuflow_collab.settings import CollabSettings
from skuflow_collab.tables import documents, human_tasks, metadata, platform
from skuflow_collab.timers import escalate, expire_locks
from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import PageBound, TaskCreated
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.revisions import machine_revision
from skuflow_contracts.topics import PAGE_BOUND
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.runtime import Periodic, ServiceContext, ServiceDefinition, Subscriptions
from skuflow_platform.storage import StorageError

FEEDBACK_CHECK_SECONDS = 900  # the daily suggestions are written at the first check after their hour


def difficulty(bound: PageBound) -> float:
    """How easy the page was for the machine (§7.28's page confidence): its SKUs' mean confidence."""
    skus = bound.result.skus
    return round(sum(s.confidence for s in skus) / len(skus), 3) if skus else 0.0


def subscriptions(ctx: ServiceContext) -> Subscriptions:
    async def remember_document(uow: UnitOfWork, bound: PageBound) -> None:
        """The first page's global attributes (BR-19); nothing when its parsed page is gone."""
        try:
            page = ParsedPage.model_validate_json(await asyncio.to_thread(ctx.storage.get, bound.ir_uri))
        except StorageError:
            return
        await uow.conn.execute(pg_insert(documents).values(
            job_id=uow.envelope.job_id, global_attributes=global_attributes(page)).on_conflict_do_nothing())

    async def create_task(uow: UnitOfWork, bound: PageBound, spec: TaskSpec, hardness: float) -> None:
        job_id = uow.envelope.job_id
        task_id = task_id_of(job_id, bound.page, spec.task_type, bound.generation, bound.reading)
        assignee = dispatch.assign(hardness, await store.team(uow.conn, uow.envelope.merchant_id))
        created = await uow.conn.execute(pg_insert(human_tasks).values(
            task_id=task_id, job_id=job_id, merchant_id=uow.envelope.merchant_id, page=bound.page,
            task_type=spec.task_type, priority=spec.priority, status="CREATED", reason=spec.reason,
            sla_level="HIGH" if spec.priority == PRIORITY_HIGH else "NORMAL", assigned_to=assignee,
            **store.reading_values(bound, hardness),
        ).on_conflict_do_nothing().returning(human_tasks.c.task_id))
        if created.first() is None:
            return
        await uow.transition("task", task_id, None, "CREATED", spec.reason, detail={"assigned_to": assignee})
        uow.emit(TaskCreated(task_id=task_id, page=bound.page, task_type=spec.task_type,
                             priority=spec.priority, reason=spec.reason))

    async def on_page_bound(envelope: EventEnvelope[PageBound], uow: UnitOfWork) -> None:
        bound = envelope.payload
        if bound.page == 1:
            await remember_document(uow, bound)
        if bound.generation:
            await store.supersede_earlier_readings(uow.conn, envelope.job_id, bound.page, bound.generation)
        spec = task_for(bound.result, bound.route)
        tasks = await store.page_tasks(uow.conn, envelope.job_id, bound.page, bound.generation)
        action, task = step(tasks, bound.reading, needs_person=spec is not None)
        hardness = difficulty(bound)
        newer = store.reading_values(bound, hardness)
        if action is Step.CREATE and spec is not None:
            await create_task(uow, bound, spec, hardness)
        elif action is Step.TAKE and spec is not None:
            await store.take_reading(uow.conn, task, reason=spec.reason, **newer)
        elif action is Step.CLOSE:  # nothing is published: this reading reached output by itself
            why = closing_reason(envelope.job_id, bound.adapted_from)
            await store.change(uow.conn, task, "adapted", (SYSTEM,), SYSTEM, why, skip_reason=why,
                               completed_at=sa.func.now(), locked_by=None, lock_expires_at=None,
                               superseded_by=machine_revision(bound.generation, bound.reading), **newer)
        elif action is Step.REMEMBER:
            await store.take_reading(uow.conn, task, reading=bound.reading)

    return [(PAGE_BOUND, on_page_bound)]


def periodic(ctx: ServiceContext) -> list[Periodic]:
    async def tick() -> None:
        async with ctx.db.transaction() as conn:
            now = datetime.now(UTC)
            await expire_locks(conn, now)
            moved = await escalate(conn, now)
        if moved:
            ctx.relay.wake()

    async def daily() -> None:
        async with ctx.db.transaction() as conn:
            await suggest(conn, datetime.now(UTC))

    async def backlog() -> None:
        async with ctx.db.transaction() as conn:
            await measure_backlog(conn)

    return [Periodic("task locks and SLA", CollabSettings().task_timer_seconds, tick),
            Periodic("feedback suggestions", FEEDBACK_CHECK_SECONDS, daily),
            Periodic("review backlog", ctx.settings.metrics_interval_seconds, backlog)]


definition = ServiceDefinition(
    name="collab", default_port=8006, metadata=metadata, tables=platform,
    versions_dir=Path(__file__).parent / "migrations", subscriptions=subscriptions, routes=routes,
    periodic=periodic,
)
