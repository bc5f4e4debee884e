"""Gateway service wiring: the REST API plus the status events that keep its jobs read model current."""

from __future__ import annotations

import logging
from pathlib import Path

import sqlalchemy as sa
from prometheus_client import Counter
from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import JobCompleted, JobFailed, JobRouted, PageBound, PageFailed
from skuflow_contracts.results import DEAD_LETTER, FAILED_PAGE_STATUSES
from skuflow_contracts.topics import JOB_COMPLETED, JOB_FAILED, JOB_ROUTED, PAGE_BOUND, PAGE_FAILED
from skuflow_gateway.api import routes
from skuflow_gateway.domain.job_states import completion_path, failed_trigger, route_trigger
from skuflow_gateway.domain.jobs import route_inconsistency
from skuflow_gateway.lifecycle import Triggers, move_job
from skuflow_gateway.tables import job_pages, jobs, metadata, platform
from skuflow_gateway.watchdog import watch_stuck_jobs
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.runtime import Periodic, ServiceContext, ServiceDefinition, Subscriptions
from skuflow_platform.settings import PlatformSettings

log = logging.getLogger("skuflow.gateway")
ROUTE_STATUS_MISMATCH = Counter("skuflow_route_status_mismatch_total",
                                "job.routed events whose route and degrade_reason disagree (seed-001b §2.3)")


class WatchdogSettings(PlatformSettings):
    stuck_job_minutes: float = 30.0
    watchdog_interval_seconds: float = 60.0


async def _move_job(uow: UnitOfWork, triggers: Triggers, **values: object) -> None:
    await move_job(uow.conn, uow.envelope.job_id, triggers, reason=values.get("degrade_reason"),
                   event_id=uow.envelope.event_id, **values)


async def _page_done(uow: UnitOfWork, page: int, status: str, total_pages: int | None,
                     error: str | None = None, warnings: list[str] | None = None, llm_cost_usd: float = 0.0) -> None:
    await uow.conn.execute(pg_insert(job_pages).values(job_id=uow.envelope.job_id, page=page, status=status,
                                                       error=error, llm_cost_usd=llm_cost_usd)
                           .on_conflict_do_update(index_elements=[job_pages.c.job_id, job_pages.c.page],
                                                  set_={"status": status, "error": error,
                                                        "llm_cost_usd": llm_cost_usd,
                                                        "updated_at": sa.func.now()}))
    facts = {"total_pages": total_pages} if total_pages else {}
    if warnings:
        facts["warnings"] = warnings
    if facts:
        await uow.conn.execute(jobs.update().where(jobs.c.job_id == uow.envelope.job_id).values(**facts))


def subscriptions(_: ServiceContext) -> Subscriptions:
    async def on_routed(envelope: EventEnvelope[JobRouted], uow: UnitOfWork) -> None:
        routed = envelope.payload
        violation = route_inconsistency(routed.route, routed.degrade_reason)
        if violation:
            ROUTE_STATUS_MISMATCH.inc()
            log.error(violation, extra={"fields": {"job_id": envelope.job_id, "route": routed.route,
                                                   "degrade_reason": routed.degrade_reason}})
        # The routing facts are kept even when job.completed overtook this event and moved the job on.
        await uow.conn.execute(jobs.update().where(jobs.c.job_id == envelope.job_id).values(
            route=routed.route, degrade_reason=routed.degrade_reason,
            evaluation=routed.evaluation.model_dump(mode="json") if routed.evaluation else None))
        await _move_job(uow, ["eval_done", route_trigger(routed.route)], degrade_reason=routed.degrade_reason)

    async def on_failed(envelope: EventEnvelope[JobFailed], uow: UnitOfWork) -> None:
        failed = envelope.payload
        await _move_job(uow, [failed_trigger(failed.reason)], degrade_reason=failed.reason)

    async def on_completed(envelope: EventEnvelope[JobCompleted], uow: UnitOfWork) -> None:
        done = envelope.payload
        await _move_job(uow, lambda current: completion_path(current, done.status), result_uri=done.result_uri,
                        sku_count=done.sku_count, total_pages=done.total_pages)

    async def on_page_bound(envelope: EventEnvelope[PageBound], uow: UnitOfWork) -> None:
        bound = envelope.payload
        result = bound.result
        error = "; ".join(result.review_reasons) or "the page could not be read" \
            if result.status in FAILED_PAGE_STATUSES else None
        await _page_done(uow, bound.page, result.status, bound.total_pages, error, bound.document_warnings,
                         bound.llm_cost_usd)

    async def on_page_failed(envelope: EventEnvelope[PageFailed], uow: UnitOfWork) -> None:
        failed = envelope.payload
        await _page_done(uow, failed.page, DEAD_LETTER, failed.total_pages, f"{failed.stage}: {failed.error}")

    return [(JOB_ROUTED, on_routed), (JOB_FAILED, on_failed), (JOB_COMPLETED, on_completed),
            (PAGE_BOUND, on_page_bound), (PAGE_FAILED, on_page_failed)]


def periodic(ctx: ServiceContext) -> list[Periodic]:
    settings = WatchdogSettings()
    limit = settings.stuck_job_minutes * 60
    return [Periodic("stuck-job watchdog", settings.watchdog_interval_seconds,
                     lambda: watch_stuck_jobs(ctx, limit))]


definition = ServiceDefinition(
    name="gateway", default_port=8000, metadata=metadata, tables=platform,
    versions_dir=Path(__file__).parent / "migrations", subscriptions=subscriptions, routes=routes,
    periodic=periodic,
)
