"""Controlling a job: cancel it (seed-001b §2.1), retry a failed page or all of them (seed-003_004),
reprocess it in full with a new config version, and, for operators, list and replay its dead letters.

A cancel is acknowledged once the output service has confirmed that the job delivers nothing more;
until then the answer is 202 and the job's ``delivery_stopped`` says when it is. A retry sends the
page back to the parser (page.parse-requested, as the first time); its new reading replaces the
failure and the job completes again (a PARTIAL_FAILED job goes back to PROCESSING). A full reprocess
reads every page of a judged job again under the profile version active now: the job's next
*generation*, whose readings are a new revision of each page that supersedes the earlier one
downstream (skuflow_contracts.revisions)."""

import asyncio
import time
from collections.abc import Iterable

import sqlalchemy as sa
from fastapi import APIRouter, HTTPException
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_contracts.events import JobCancelled, PageParseRequested
from skuflow_contracts.results import FAILED_PAGE_STATUSES
from skuflow_contracts.topics import EVENT_TOPICS
from skuflow_gateway import timeline
from skuflow_gateway.api import examples
from skuflow_gateway.api.auth import caller_dependency, own_job
from skuflow_gateway.api.jobs import JobId, files_kept
from skuflow_gateway.api.pages import PageNo
from skuflow_gateway.api.profiles import frozen_version
from skuflow_gateway.domain.profiles import CATEGORY, PROFILE_ID
from skuflow_gateway.lifecycle import move_job
from skuflow_gateway.page_progress import reprocess_pages
from skuflow_gateway.tables import job_pages, jobs
from skuflow_platform.access import OPERATORS
from skuflow_platform.auth import Principal
from skuflow_platform.dlq import list_dead_letters, replay
from skuflow_platform.openapi import answer
from skuflow_platform.outbox import add_to_outbox
from skuflow_platform.runtime import ServiceContext
from skuflow_platform.settings import PlatformSettings
from skuflow_platform.tracing import current_traceparent

CONFIRM_POLL_SECONDS = 0.2
EVERY_TOPIC = [topic.name for topic in EVENT_TOPICS]


class Reprocess(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"profile": "furniture"}, {"category": "lighting"}, {}]})

    profile: str | None = Field(None, pattern=PROFILE_ID, description="one of your profiles (its active version)")
    category: str | None = Field(None, min_length=1, max_length=64, pattern=CATEGORY,
                                 description="else your profile of this category; else your default")


class ControlSettings(PlatformSettings):
    cancel_wait_seconds: float = 15.0  # how long a cancel request waits for the output's confirmation


async def read_again(ctx: ServiceContext, conn: AsyncConnection, job: sa.Row, pages: Iterable[int],
                     config_version: str, generation: int) -> None:
    """Send ``pages`` of the job back to the parser (page.parse-requested, as the first time), to be
    read under ``config_version`` as readings of ``generation``."""
    for page in pages:
        await add_to_outbox(conn, ctx.tables.outbox, PageParseRequested(
            page=page, total_pages=job.total_pages, file_uri=job.file_uri, file_hash=job.file_hash,
            route=job.route or "AUTO", config_version=config_version, generation=generation,
            document_warnings=job.warnings or []), job_id=job.job_id, merchant_id=job.merchant_id,
            producer="gateway", traceparent=current_traceparent(), key=f"{job.job_id}/{page}")


async def retry_pages(ctx: ServiceContext, job_id: str, caller: Principal, only: int | None) -> dict:
    """Send the job's failed pages (or page ``only``) back to the parser; 409 when none failed."""
    job = await own_job(ctx, job_id, caller.merchant_id)
    async with ctx.db.transaction() as conn:
        failed = [row.page for row in (await conn.execute(sa.select(job_pages.c.page).where(
            job_pages.c.job_id == job_id, job_pages.c.status.in_(FAILED_PAGE_STATUSES))
            .order_by(job_pages.c.page))).all()
                  if only is None or row.page == only]
        if not failed:
            what = f"page {only} of job {job_id} has not failed" if only else f"job {job_id} has no failed page"
            raise HTTPException(409, what)
        if await move_job(conn, job_id, ["retry_pages"], reason="retry", detail={"pages": failed,
                                                                                "by": caller.user_id}) is None:
            raise HTTPException(409, f"job {job_id} is {job.status}; its pages cannot be retried")
        await read_again(ctx, conn, job, failed, job.config_version or ctx.settings.config_version, job.generation)
        for page in failed:
            await timeline.record(conn, job_id, timeline.PAGE_RETRIED, page_no=page)
    ctx.relay.wake()
    return {"job_id": job_id, "status": "PROCESSING", "retried_pages": failed}


def routes(ctx: ServiceContext) -> APIRouter:
    router = APIRouter(tags=["control"])
    Caller = caller_dependency(ctx)
    Operator = caller_dependency(ctx, *OPERATORS)
    settings = ControlSettings()

    async def delivered_after_stop(job_id: str) -> int | None:
        async with ctx.db.transaction() as conn:
            row = (await conn.execute(sa.select(jobs.c.delivery_stopped_at, jobs.c.sku_count)
                                      .where(jobs.c.job_id == job_id))).one()
        return (row.sku_count or 0) if row.delivery_stopped_at is not None else None

    @router.post("/jobs/{job_id}/cancel", responses={
        **answer(examples.CANCELLED),
        **answer(examples.CANCEL_UNCONFIRMED, status=202,
                 description="cancelled; the output service has not yet confirmed that delivery stopped"),
        409: {"description": "the job is already finished"}})
    async def cancel(job_id: JobId, caller: Caller) -> JSONResponse:
        """Cancel a job that is not finished: pages in flight are dropped and nothing more is delivered;
        once delivery has stopped, the job's result and SKUs are what it delivered before."""
        job = await own_job(ctx, job_id, caller.merchant_id)
        async with ctx.db.transaction() as conn:
            # a result written before is replaced by the output's result of what was delivered
            status = await move_job(conn, job_id, ["cancel"], reason="cancelled", detail={"by": caller.user_id},
                                    result_uri=None)
            if status is None:
                raise HTTPException(409, f"job {job_id} is {job.status} and cannot be cancelled")
            await add_to_outbox(conn, ctx.tables.outbox, JobCancelled(cancelled_by=caller.user_id), job_id=job_id,
                                merchant_id=caller.merchant_id, producer="gateway",
                                traceparent=current_traceparent())
        ctx.relay.wake()
        deadline = time.monotonic() + settings.cancel_wait_seconds
        delivered = await delivered_after_stop(job_id)
        while delivered is None and time.monotonic() < deadline:
            await asyncio.sleep(CONFIRM_POLL_SECONDS)
            delivered = await delivered_after_stop(job_id)
        body = {"job_id": job_id, "status": status, "delivery_stopped": delivered is not None,
                "delivered_skus": delivered}
        return JSONResponse(body, status_code=200 if delivered is not None else 202)

    @router.post("/jobs/{job_id}/reprocess", responses={
        **answer(examples.REPROCESSED),
        409: {"description": "the job is not judged yet (still running, cancelled, rejected)"},
        410: {"description": "its files were removed after their retention period"},
        422: {"description": "no such profile of yours"}})
    async def reprocess(job_id: JobId, caller: Caller, body: Reprocess | None = None) -> dict:
        """Read every page of a judged job again under the profile version active now (a new config
        version); the new readings supersede the earlier revision downstream."""
        job = await own_job(ctx, job_id, caller.merchant_id)
        files_kept(job)
        body = body or Reprocess()
        generation = job.generation + 1  # a concurrent reprocess finds the job PROCESSING and is refused
        async with ctx.db.transaction() as conn:
            version = await frozen_version(conn, caller.merchant_id, body.profile, body.category,
                                           ctx.settings.config_version)
            status = await move_job(conn, job_id, ["reprocess"], reason="reprocess",
                                    detail={"by": caller.user_id, "config_version": version, "generation": generation},
                                    config_version=version, generation=generation, result_uri=None,
                                    pending_completion=None, completion_pending_since=None)
            if status is None or not job.total_pages:
                raise HTTPException(409, f"job {job_id} is {job.status}; only a judged job can be reprocessed")
            await reprocess_pages(conn, job_id, job.total_pages, generation)
            await read_again(ctx, conn, job, range(1, job.total_pages + 1), version, generation)
            await timeline.record(conn, job_id, timeline.JOB_REPROCESSED, generation=generation,
                                  config_version=version, previous_config_version=job.config_version)
        ctx.relay.wake()
        return {"job_id": job_id, "status": status, "config_version": version, "generation": generation,
                "pages": job.total_pages}

    @router.get("/jobs/{job_id}/dead-letters", responses=answer(examples.DEAD_LETTERS))
    async def list_job_dead_letters(job_id: JobId, who: Operator) -> dict:
        """The job's messages in any dead-letter queue, with the error each failed with."""
        await own_job(ctx, job_id, who.merchant_id)
        letters = await list_dead_letters(ctx.settings.kafka_bootstrap, EVERY_TOPIC, job_id)
        return {"job_id": job_id, "dead_letters": letters}

    @router.post("/jobs/{job_id}/dead-letters/replay", responses=answer(examples.REPLAYED))
    async def replay_job_dead_letters(job_id: JobId, who: Operator) -> dict:
        """Send the job's dead letters back to their topics once their cause is fixed (consumers that
        had handled one skip it); a PARTIAL_FAILED job goes back to PROCESSING for them."""
        await own_job(ctx, job_id, who.merchant_id)
        replayed = await replay(ctx.settings.kafka_bootstrap, EVERY_TOPIC, job_id=job_id)
        if replayed:
            async with ctx.db.transaction() as conn:
                await move_job(conn, job_id, ["retry_pages"], reason="dlq replay",
                               detail={"letters": len(replayed), "by": who.user_id})
        return {"job_id": job_id, "replayed": replayed}

    @router.post("/jobs/{job_id}/pages/{page}/retry", responses={
        **answer(examples.RETRIED), 409: {"description": "the page has not failed"}})
    async def retry_page(job_id: JobId, page: PageNo, caller: Caller) -> dict:
        """Read a failed (dead-lettered or unreadable) page again, once its cause is fixed."""
        return await retry_pages(ctx, job_id, caller, page)

    @router.post("/jobs/{job_id}/retry-failed", responses={
        **answer(examples.RETRIED), 409: {"description": "no page of the job has failed"}})
    async def retry_failed(job_id: JobId, caller: Caller) -> dict:
        """Read every failed page of the job again."""
        return await retry_pages(ctx, job_id, caller, None)

    return router
