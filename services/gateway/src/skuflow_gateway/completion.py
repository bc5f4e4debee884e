"""A job's completion as the gateway applies it: after the pages it reports on.

job.completed and the page events travel on different topics, so the gateway may hear that a job is
done before it has heard the last pages' readings; the job would then be final while its pages were
still running, and its timeline would end before their ``page_completed`` events. Such a completion
is held on the job row and applied by the page event that catches the pages up, or, should that
event never come, by a periodic pass once it has waited ``grace`` seconds. A completion of an
earlier generation (before a full reprocess) changes nothing.
"""

from __future__ import annotations

import logging
from uuid import UUID

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_contracts.events import JobCompleted
from skuflow_gateway import timeline
from skuflow_gateway.domain.job_states import completion_path
from skuflow_gateway.domain.page_states import pages_caught_up
from skuflow_gateway.lifecycle import move_job, stale
from skuflow_gateway.metrics import count_completed
from skuflow_gateway.tables import job_pages, jobs
from skuflow_platform.db import from_now
from skuflow_platform.runtime import ServiceContext

log = logging.getLogger(__name__)


async def on_completed(conn: AsyncConnection, job_id: str, done: JobCompleted, event_id: UUID) -> None:
    """Apply the completion now if the job's pages are caught up, else hold it (a newer one replaces it)."""
    if await stale(conn, job_id, done.generation):
        return  # the verdict on readings a full reprocess replaced
    if await _caught_up(conn, job_id, done):
        await _apply(conn, job_id, done, event_id)
        return
    await conn.execute(jobs.update().where(jobs.c.job_id == job_id).values(
        pending_completion={"event_id": str(event_id), "payload": done.model_dump(mode="json")},
        completion_pending_since=sa.func.now()))


async def after_page_event(conn: AsyncConnection, job_id: str, held: dict | None) -> None:
    """Called by each page event under the job's lock, with the completion the job holds (as read
    under that lock): apply it if the event caught the pages up."""
    if held is not None:
        done, event_id = _completion(held)
        if await _caught_up(conn, job_id, done):
            await _apply(conn, job_id, done, event_id)


async def apply_overdue(ctx: ServiceContext, grace_seconds: float) -> int:
    """Apply completions held longer than ``grace_seconds`` (a page event lost or dead-lettered here)."""
    async with ctx.db.transaction() as conn:
        overdue = (await conn.execute(sa.select(jobs.c.job_id).where(
            jobs.c.completion_pending_since < from_now(-grace_seconds)).with_for_update(skip_locked=True))
                   ).scalars().all()
        for job_id in overdue:
            log.warning("job completion applied before its pages were heard", extra={"fields": {"job_id": job_id}})
            await _apply(conn, job_id, *await _held(conn, job_id))
    return len(overdue)


def _completion(held: dict) -> tuple[JobCompleted, UUID]:
    return JobCompleted.model_validate(held["payload"]), UUID(held["event_id"])


async def _held(conn: AsyncConnection, job_id: str) -> tuple[JobCompleted, UUID]:
    held = (await conn.execute(sa.select(jobs.c.pending_completion).where(jobs.c.job_id == job_id))).scalar()
    return _completion(held)


async def _caught_up(conn: AsyncConnection, job_id: str, done: JobCompleted) -> bool:
    statuses = {row.page: row.status for row in await conn.execute(
        sa.select(job_pages.c.page, job_pages.c.status).where(job_pages.c.job_id == job_id))}
    return pages_caught_up(done.total_pages, statuses, set(done.failed_pages))


async def _apply(conn: AsyncConnection, job_id: str, done: JobCompleted, event_id: UUID) -> None:
    status = await move_job(conn, job_id, lambda current: completion_path(current, done.status),
                            event_id=event_id, result_uri=done.result_uri, sku_count=done.sku_count,
                            total_pages=done.total_pages)
    await conn.execute(jobs.update().where(jobs.c.job_id == job_id).values(
        pending_completion=None, completion_pending_since=None))
    if status is not None:
        await count_completed(conn, job_id)
        await timeline.record(conn, job_id, timeline.JOB_COMPLETED, status=status,
                              total_skus=done.sku_count, failed_pages=done.failed_pages)
