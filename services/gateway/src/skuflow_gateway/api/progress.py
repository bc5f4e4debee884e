"""A job as it runs: ``/progress`` to poll (seed-001b §2.4) and ``/events``, a Server-Sent Events
stream of the job's timeline that resumes after ``Last-Event-ID``."""


import asyncio
import json
import time
from typing import Annotated

import sqlalchemy as sa
from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import StreamingResponse

from skuflow_gateway import timeline
from skuflow_gateway.api import examples
from skuflow_gateway.api.auth import caller_dependency, own_job
from skuflow_gateway.api.jobs import JobId
from skuflow_gateway.domain.job_states import CANCELLED, judged, settled
from skuflow_gateway.domain.jobs import user_status
from skuflow_gateway.domain.progress import page_breakdown, progress
from skuflow_gateway.tables import job_pages, jobs
from skuflow_platform.openapi import answer
from skuflow_platform.runtime import ServiceContext
from skuflow_platform.settings import PlatformSettings

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


class StreamSettings(PlatformSettings):
    sse_poll_seconds: float = 0.5
    sse_keepalive_seconds: float = 15.0
    sse_max_seconds: float = 300.0  # then the client reconnects with Last-Event-ID


def sse_frame(event_id: int, kind: str, data: dict) -> str:
    return f"id: {event_id}\nevent: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def routes(ctx: ServiceContext) -> APIRouter:
    router = APIRouter(tags=["progress"])
    Caller = caller_dependency(ctx)
    settings = StreamSettings()

    @router.get("/jobs/{job_id}/progress", responses=answer(examples.PROGRESS))
    async def get_progress(job_id: JobId, caller: Caller) -> dict:
        job = await own_job(ctx, job_id, caller.merchant_id)
        async with ctx.db.transaction() as conn:
            pages = (await conn.execute(sa.select(job_pages.c.status, job_pages.c.import_status).where(
                job_pages.c.job_id == job_id))).all()
            statuses = [page.status for page in pages]
            elapsed = (await conn.execute(sa.select(sa.func.extract(
                "epoch", sa.func.now() - sa.func.min(job_pages.c.started_at))).where(
                job_pages.c.job_id == job_id))).scalar_one_or_none()
        seen = progress(job.status, judged(job.status, job.result_uri is not None), job.total_pages, statuses,
                        float(elapsed) if elapsed is not None else None)
        return {"job_id": job_id, "status": job.status, "user_status": user_status(job.status),
                "total_pages": job.total_pages, "completed_pages": seen.completed_pages,
                "current_phase": seen.phase, "phase_detail": seen.phase_detail,
                "estimated_remaining_sec": seen.estimated_remaining_sec, "page_breakdown": seen.page_breakdown,
                "completed_skus": job.sku_count,
                "import_breakdown": page_breakdown([p.import_status for p in pages if p.import_status], None)}

    @router.get("/jobs/{job_id}/events", response_class=StreamingResponse,
                responses=answer(examples.EVENTS, media="text/event-stream", description=(
                    "status, page_started, page_completed, page_reviewed, page_retried, page_imported, "
                    "human_needed, job_completed, job_failed, job_cancelled and job_reprocessed events")))
    async def get_events(job_id: JobId, caller: Caller, request: Request,
                         last_event_id: Annotated[str | None, Header()] = None,
                         after: Annotated[int | None, Query(ge=0, description="as Last-Event-ID")] = None
                         ) -> StreamingResponse:
        """The job's events in order; the stream ends once the job is completed (final, or judged with
        its pages waiting for people: PARTIAL_IMPORTED, PARTIAL_FAILED, DEGRADED_HUMAN) and every event
        is sent, its job_completed (or job_failed, job_cancelled) last. What people do later is read by
        reconnecting with Last-Event-ID: the events since, then the end."""
        await own_job(ctx, job_id, caller.merchant_id)
        cursor = after if after is not None else int(last_event_id) if (last_event_id or "").isdigit() else 0
        return StreamingResponse(stream(job_id, cursor, request), media_type="text/event-stream",
                                 headers=SSE_HEADERS)

    async def stream(job_id: str, cursor: int, request: Request):
        started = quiet_since = time.monotonic()
        yield f"retry: {int(settings.sse_poll_seconds * 4000)}\n\n"
        while time.monotonic() - started < settings.sse_max_seconds:
            async with ctx.db.transaction() as conn:
                # The status first: a final status's events were committed with it, so they are read next.
                job = (await conn.execute(sa.select(jobs.c.status, jobs.c.result_uri, jobs.c.delivery_stopped_at)
                                          .where(jobs.c.job_id == job_id))).one()
                rows = await timeline.since(conn, job_id, cursor)
            for row in rows:
                cursor = row.seq
                yield sse_frame(row.seq, row.kind, row.data)
            if rows:
                quiet_since = time.monotonic()
                continue
            # a cancelled job's stream waits for its job_cancelled event (delivery stopped)
            finished = settled(job.status, job.result_uri is not None) and (
                job.status != CANCELLED or job.delivery_stopped_at is not None)
            if finished or await request.is_disconnected():
                return
            if time.monotonic() - quiet_since > settings.sse_keepalive_seconds:
                quiet_since = time.monotonic()
                yield ": keep-alive\n\n"
            await asyncio.sleep(settings.sse_poll_seconds)

    return router
