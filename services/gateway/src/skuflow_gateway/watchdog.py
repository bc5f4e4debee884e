"""The stuck-job watchdog as a periodic job of the gateway, which sees every job and its pages.

One replica at a time (a transaction-scoped Postgres advisory lock). Missing pages are failed by
publishing ``page.failed`` (stage ``watchdog``) through the outbox, the same notice a dead-lettered
page sends, so the output service completes the job as it always does; a job with nothing to
show is rejected here with a reason.
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_contracts.events import PageFailed
from skuflow_gateway.domain.job_states import JOB, settled
from skuflow_gateway.domain.page_states import IN_FLIGHT
from skuflow_gateway.domain.watchdog import NO_PROGRESS, verdict
from skuflow_gateway.lifecycle import move_job
from skuflow_gateway.metrics import count_stuck
from skuflow_gateway.tables import job_pages, jobs
from skuflow_platform.db import from_now
from skuflow_platform.outbox import add_to_outbox
from skuflow_platform.runtime import ServiceContext

log = logging.getLogger(__name__)
LOCK_KEY = 0x5C0F_0001  # the advisory lock that makes one replica the watchdog at a time


async def watch_stuck_jobs(ctx: ServiceContext, limit_seconds: float) -> int:
    """One pass; returns how many jobs it acted on."""
    async with ctx.db.transaction() as conn:
        if not (await conn.execute(sa.select(sa.func.pg_try_advisory_xact_lock(LOCK_KEY)))).scalar_one():
            return 0
        activity = sa.select(jobs.c.job_id, sa.func.greatest(
            jobs.c.updated_at, sa.func.max(job_pages.c.updated_at)).label("last")).select_from(
            jobs.outerjoin(job_pages, job_pages.c.job_id == jobs.c.job_id)).where(
            jobs.c.status.not_in(JOB.final), jobs.c.result_uri.is_(None)).group_by(
            jobs.c.job_id, jobs.c.updated_at).subquery()
        idle = (await conn.execute(sa.select(jobs, sa.func.extract("epoch", sa.func.now() - activity.c.last)
                                             .label("idle")).join(activity, activity.c.job_id == jobs.c.job_id)
                                   .where(activity.c.last < from_now(-limit_seconds)).with_for_update(of=jobs))
                ).all()
        acted = 0
        for job in idle:
            seen = set((await conn.execute(sa.select(job_pages.c.page).where(
                job_pages.c.job_id == job.job_id, job_pages.c.status.not_in(IN_FLIGHT)))).scalars())
            found = verdict(settled(job.status, job.result_uri is not None), job.total_pages, seen,
                            float(job.idle), limit_seconds)
            if found is None:
                continue
            acted += 1
            await _act(ctx, conn, job, found.fail_job, found.missing_pages, limit_seconds)
        count_stuck(acted)
    if acted:
        ctx.relay.wake()
    return acted


async def _act(ctx: ServiceContext, conn: AsyncConnection, job: sa.Row, fail_job: bool,
               missing_pages: tuple[int, ...], limit_seconds: float) -> None:
    minutes = f"{limit_seconds / 60:g} min"
    log.warning("stuck job", extra={"fields": {"job_id": job.job_id, "status": job.status,
                                               "missing_pages": list(missing_pages), "fail_job": fail_job}})
    if fail_job:
        await move_job(conn, job.job_id, ["reject"], reason=NO_PROGRESS, detail={"idle_limit": minutes},
                       degrade_reason=NO_PROGRESS)
        return
    for page in missing_pages:
        await add_to_outbox(conn, ctx.tables.outbox, PageFailed(
            page=page, total_pages=job.total_pages, stage="watchdog",
            error=f"no result within {minutes}; the page was ended by the watchdog", dlq_topic="",
            generation=job.generation),
            job_id=job.job_id, merchant_id=job.merchant_id, producer="gateway", traceparent=None)
    await conn.execute(jobs.update().where(jobs.c.job_id == job.job_id).values(updated_at=sa.func.now()))
