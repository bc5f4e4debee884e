"""Gateway service wiring: the REST API, the job status events that keep its jobs read model current
(pages: ``page_progress``), and the stuck-job watchdog."""

from __future__ import annotations

import logging
from pathlib import Path

import sqlalchemy as sa
from prometheus_client import Counter

from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import JobCancelConfirmed, JobCompleted, JobFailed, JobRouted
from skuflow_contracts.topics import JOB_CANCEL_CONFIRMED, JOB_COMPLETED, JOB_FAILED, JOB_ROUTED
from skuflow_gateway import completion, page_progress, retention, timeline
from skuflow_gateway.api import routes
from skuflow_gateway.domain.job_states import failed_trigger, route_trigger
from skuflow_gateway.domain.jobs import INV_11_VIOLATED, route_inconsistency
from skuflow_gateway.lifecycle import Triggers, move_job
from skuflow_gateway.metrics import measure_dead_letters, measure_jobs
from skuflow_gateway.tables import jobs, metadata, platform
from skuflow_gateway.watchdog import watch_stuck_jobs
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.metrics import INVARIANT_VIOLATIONS, once_committed
from skuflow_platform.runtime import Periodic, ServiceContext, ServiceDefinition, Subscriptions
from skuflow_platform.settings import PlatformSettings

log = logging.getLogger("skuflow.gateway")
ROUTE_STATUS_MISMATCH = Counter("skuflow_route_status_mismatch_total",
                                "job.routed events whose route and degrade_reason disagree (seed-001b §2.3)")


class WatchdogSettings(PlatformSettings):
    stuck_job_minutes: float = 30.0
    watchdog_interval_seconds: float = 60.0
    completion_grace_seconds: float = 60.0  # a held job.completed is applied after this (completion.py)


async def _move_job(uow: UnitOfWork, triggers: Triggers, **values: object) -> str | None:
    return await move_job(uow.conn, uow.envelope.job_id, triggers, reason=values.get("degrade_reason"),
                          event_id=uow.envelope.event_id, **values)


def subscriptions(_: ServiceContext) -> Subscriptions:
    async def on_routed(envelope: EventEnvelope[JobRouted], uow: UnitOfWork) -> None:
        routed = envelope.payload
        violation = route_inconsistency(routed.route, routed.degrade_reason)
        if violation:
            once_committed(ROUTE_STATUS_MISMATCH.inc)
            if violation == INV_11_VIOLATED:
                once_committed(INVARIANT_VIOLATIONS.labels("INV-11").inc)
            log.error(violation, extra={"fields": {"job_id": envelope.job_id, "route": routed.route,
                                                   "degrade_reason": routed.degrade_reason}})
        # The routing facts are kept even when job.completed overtook this event and moved the job on.
        await uow.conn.execute(jobs.update().where(jobs.c.job_id == envelope.job_id).values(
            route=routed.route, degrade_reason=routed.degrade_reason,
            evaluation=routed.evaluation.model_dump(mode="json") if routed.evaluation else None))
        await _move_job(uow, ["eval_done", route_trigger(routed.route)], degrade_reason=routed.degrade_reason)

    async def on_failed(envelope: EventEnvelope[JobFailed], uow: UnitOfWork) -> None:
        failed = envelope.payload
        status = await _move_job(uow, [failed_trigger(failed.reason)], degrade_reason=failed.reason,
                                 failure_detail=failed.message)
        if status is not None:
            await timeline.record(uow.conn, envelope.job_id, timeline.JOB_FAILED, status=status,
                                  reason=failed.reason)

    async def on_completed(envelope: EventEnvelope[JobCompleted], uow: UnitOfWork) -> None:
        await completion.on_completed(uow.conn, envelope.job_id, envelope.payload, envelope.event_id)

    async def on_cancel_confirmed(envelope: EventEnvelope[JobCancelConfirmed], uow: UnitOfWork) -> None:
        """Delivery has stopped: the job's result is now that of what it delivered before."""
        confirmed = envelope.payload
        stopped = await uow.conn.execute(jobs.update().where(
            jobs.c.job_id == envelope.job_id, jobs.c.delivery_stopped_at.is_(None)).values(
            delivery_stopped_at=sa.func.now(), sku_count=confirmed.delivered_skus,
            result_uri=confirmed.result_uri).returning(jobs.c.job_id))
        if stopped.first() is not None:
            await timeline.record(uow.conn, envelope.job_id, timeline.JOB_CANCELLED,
                                  delivered_skus=envelope.payload.delivered_skus)

    return [(JOB_ROUTED, on_routed), (JOB_FAILED, on_failed), (JOB_COMPLETED, on_completed),
            (JOB_CANCEL_CONFIRMED, on_cancel_confirmed), *page_progress.subscriptions()]


def periodic(ctx: ServiceContext) -> list[Periodic]:
    settings = WatchdogSettings()
    limit = settings.stuck_job_minutes * 60

    async def measure() -> None:
        async with ctx.db.transaction() as conn:
            await measure_jobs(conn)
        await measure_dead_letters(ctx.settings.kafka_bootstrap)

    return [Periodic("job and dead-letter gauges", ctx.settings.metrics_interval_seconds, measure),
            Periodic("stuck-job watchdog", settings.watchdog_interval_seconds,
                     lambda: watch_stuck_jobs(ctx, limit)),
            Periodic("held job completions", settings.completion_grace_seconds / 4,
                     lambda: completion.apply_overdue(ctx, settings.completion_grace_seconds)),
            *retention.periodic(ctx)]


definition = ServiceDefinition(
    name="gateway", default_port=8000, metadata=metadata, tables=platform,
    versions_dir=Path(__file__).parent / "migrations", subscriptions=subscriptions, routes=routes,
    periodic=periodic,
)
