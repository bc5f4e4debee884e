"""Collab service wiring: page.bound (needs_review) → a human task and task.created."""

from __future__ import annotations

import uuid
from pathlib import Path

from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_collab.domain.tasks import task_for
from skuflow_collab.tables import human_tasks, metadata, platform
from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import PageBound, TaskCreated
from skuflow_contracts.topics import PAGE_BOUND
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.runtime import ServiceContext, ServiceDefinition, Subscriptions


def subscriptions(_: ServiceContext) -> Subscriptions:
    async def on_page_bound(envelope: EventEnvelope[PageBound], uow: UnitOfWork) -> None:
        bound = envelope.payload
        spec = task_for(bound.result)
        if spec is None:
            return
        task_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{envelope.job_id}/{bound.page}/{spec.task_type}"))
        created = await uow.conn.execute(pg_insert(human_tasks).values(
            task_id=task_id, job_id=envelope.job_id, merchant_id=envelope.merchant_id, page=bound.page,
            task_type=spec.task_type, priority=spec.priority, status="PENDING", reason=spec.reason,
        ).on_conflict_do_nothing().returning(human_tasks.c.task_id))
        if created.first() is None:
            return
        await uow.transition("task", task_id, None, "PENDING", spec.reason)
        await uow.emit(TaskCreated(task_id=task_id, page=bound.page, task_type=spec.task_type,
                                   priority=spec.priority, reason=spec.reason))

    return [(PAGE_BOUND, on_page_bound)]


definition = ServiceDefinition(
    name="collab", default_port=8006, metadata=metadata, tables=platform,
    versions_dir=Path(__file__).parent / "migrations", subscriptions=subscriptions,
)
