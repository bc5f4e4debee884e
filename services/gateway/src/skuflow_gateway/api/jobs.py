"""Jobs: upload a catalog, list and read jobs, download the result (JWT; scoped to the caller's merchant)."""

import asyncio
import json
import uuid
from typing import Annotated

import sqlalchemy as sa
from fastapi import APIRouter, HTTPException, Path, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic_settings import SettingsConfigDict

from skuflow_contracts.events import JobCreated
from skuflow_contracts.profile import UnknownProfile, profile_for
from skuflow_gateway import lifecycle, retention
from skuflow_gateway.api import examples
from skuflow_gateway.api.auth import caller_dependency, own_job, own_job_in
from skuflow_gateway.api.files import with_image_links
from skuflow_gateway.api.profiles import frozen_version
from skuflow_gateway.api.uploads import receive_file
from skuflow_gateway.domain.job_states import judged, settled
from skuflow_gateway.domain.jobs import (
    UploadLimits,
    UploadRejected,
    action_hint,
    check_upload,
    error_message,
    llm_cost_usd,
    no_result_yet,
    pages_done,
    user_status,
    utc_iso,
)
from skuflow_gateway.domain.page_states import IN_FLIGHT
from skuflow_gateway.domain.profiles import CATEGORY, PROFILE_ID
from skuflow_gateway.domain.retention import FULL
from skuflow_gateway.retention import RetentionSettings, disk_state_now
from skuflow_gateway.tables import job_pages, jobs
from skuflow_platform.auth import Principal
from skuflow_platform.openapi import answer
from skuflow_platform.outbox import add_to_outbox
from skuflow_platform.runtime import ServiceContext
from skuflow_platform.settings import PlatformSettings
from skuflow_platform.signed_urls import FileLinkSettings
from skuflow_platform.storage import SCHEME
from skuflow_platform.tracing import (
    TraceSettings,
    attributes,
    current_traceparent,
    recorded_trace_id,
    trace_url,
    tracer,
)

RATE_WINDOW_SECONDS = 60
UPLOAD_BODY = {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["file"],
    "properties": {"file": {"type": "string", "format": "binary", "description": "the PDF catalog"}}}}}}}
JobId = Annotated[str, Path(min_length=1, max_length=100)]


TIMES = (jobs.c.created_at, jobs.c.updated_at, jobs.c.completed_at)


def times(job: sa.Row) -> dict:
    """When the job was uploaded, last changed (its latest event) and completed (``job_states.settled``;
    None while it runs), in UTC."""
    return {column.name: utc_iso(getattr(job, column.name)) for column in TIMES}


def files_kept(job: sa.Row) -> None:
    """410 Gone once the retention cleanup has removed the job's files (its rows stay)."""
    if job.files_purged_at is not None:
        raise HTTPException(410, f"the job's files were removed on {job.files_purged_at:%Y-%m-%d}, "
                                 "after their retention period")


class GatewaySettings(PlatformSettings):
    model_config = SettingsConfigDict(env_prefix="SKUFLOW_", extra="ignore")
    max_upload_mb: int = 100
    uploads_per_minute: int = 60  # per merchant, across every gateway replica


def routes(ctx: ServiceContext) -> APIRouter:
    settings = GatewaySettings()
    limits = UploadLimits(max_bytes=settings.max_upload_mb * 1024 * 1024)
    router = APIRouter()
    Caller = caller_dependency(ctx)
    disk_limits = RetentionSettings().limits
    file_links = FileLinkSettings()
    trace_ui = TraceSettings().ui_url

    async def check_rate(caller: Principal) -> None:
        """Counted in Postgres so that every replica enforces one limit per merchant."""
        async with ctx.db.transaction() as conn:
            recent, waited = (await conn.execute(
                sa.select(sa.func.count(), sa.func.extract("epoch", sa.func.now() - sa.func.min(jobs.c.created_at)))
                .where((jobs.c.merchant_id == caller.merchant_id)
                       & (jobs.c.created_at > sa.func.now() - sa.text(f"interval '{RATE_WINDOW_SECONDS} seconds'"))))
            ).one()
        if recent < settings.uploads_per_minute:
            return
        retry_after = max(1, int(RATE_WINDOW_SECONDS - float(waited)) + 1)
        raise HTTPException(429, f"at most {settings.uploads_per_minute} uploads per minute; retry in {retry_after}s",
                            headers={"Retry-After": str(retry_after)})

    @router.post("/jobs", status_code=201, openapi_extra=UPLOAD_BODY,
                 responses=answer(examples.CREATED_JOB, status=201))
    async def create_job(request: Request, caller: Caller,
                         profile: Annotated[str | None, Query(pattern=PROFILE_ID, description=(
                             "the threshold profile to judge it by; default: your default profile"))] = None,
                         category: Annotated[str | None, Query(max_length=64, pattern=CATEGORY, description=(
                             "pick your profile of this category instead of naming one"))] = None) -> dict:
        """Auth (dependency), declared size, rate and profile are checked before one byte of the body
        is read. The job is frozen to the profile version active now (INV-09)."""
        job_id = str(uuid.uuid4())
        key = f"jobs/{job_id}/source.pdf"
        try:
            limits.check_declared(request.headers.get("content-length"))
            await check_rate(caller)
            if await disk_state_now(ctx, disk_limits) == FULL:
                raise HTTPException(503, "storage is nearly full; uploads resume once space is freed",
                                    headers={"Retry-After": "300"})
            async with ctx.db.transaction() as conn:
                frozen = await frozen_version(conn, caller.merchant_id, profile, category,
                                              ctx.settings.config_version)
            if frozen == ctx.settings.config_version:
                try:
                    profile_for(frozen)
                except UnknownProfile as exc:
                    raise HTTPException(503, str(exc)) from exc
            with ctx.storage.writer(key) as sink:
                received = await receive_file(request, sink, field_name="file", limits=limits)
                check_upload(received.head, received.size, limits)
        except UploadRejected as exc:
            raise HTTPException(exc.status_code, exc.message) from exc
        file_uri = SCHEME + key
        filename = received.filename or "upload.pdf"
        with tracer().start_as_current_span("upload catalog", attributes=attributes(
                job_id=job_id, merchant_id=caller.merchant_id, size_bytes=received.size)):
            async with ctx.db.transaction() as conn:
                status = await lifecycle.create_job(
                    conn, job_id, merchant_id=caller.merchant_id, uploaded_by=caller.user_id,
                    filename=filename, file_hash=received.sha256, file_uri=file_uri, size_bytes=received.size,
                    config_version=frozen, traceparent=current_traceparent())
                await add_to_outbox(conn, ctx.tables.outbox, JobCreated(
                    filename=filename, file_uri=file_uri, file_hash=received.sha256, size_bytes=received.size,
                    config_version=frozen,
                ), job_id=job_id, merchant_id=caller.merchant_id, producer="gateway",
                    traceparent=current_traceparent())
        ctx.relay.wake()
        return {"job_id": job_id, "status": status, "user_status": user_status(status),
                "file_hash": received.sha256}

    @router.get("/jobs", responses=answer(examples.JOBS))
    async def list_jobs(caller: Caller, limit: Annotated[int, Query(ge=1, le=500)] = 50) -> list[dict]:
        async with ctx.db.transaction() as conn:
            rows = (await conn.execute(sa.select(jobs.c.job_id, jobs.c.filename, jobs.c.status, *TIMES)
                                       .where(jobs.c.merchant_id == caller.merchant_id)
                                       .order_by(jobs.c.created_at.desc()).limit(limit))).all()
        return [{"job_id": r.job_id, "filename": r.filename, "status": r.status,
                 "user_status": user_status(r.status), **times(r)} for r in rows]

    @router.get("/jobs/{job_id}", responses=answer(examples.JOB))
    async def get_job(job_id: JobId, caller: Caller) -> dict:
        async with ctx.db.transaction() as conn:
            job = await own_job_in(conn, job_id, caller.merchant_id)
            pages = (await conn.execute(sa.select(job_pages.c.page, job_pages.c.status, job_pages.c.error,
                                                  job_pages.c.llm_cost_usd)
                                        .where(job_pages.c.job_id == job_id).order_by(job_pages.c.page))).all()
        done = pages_done(judged(job.status, job.result_uri is not None),
                          sum(1 for p in pages if p.status not in IN_FLIGHT), job.total_pages)
        shown = user_status(job.status)
        total = job.total_pages or 0
        failed = [(p.page, p.error) for p in pages if p.error is not None]
        trace_id = recorded_trace_id(job.traceparent)
        return {
            "job_id": job.job_id, "filename": job.filename, "status": job.status, "user_status": shown,
            "route": job.route, "total_pages": job.total_pages, "completed_pages": done,
            "progress_percent": round(100 * done / total, 1) if total else 0.0,
            "sku_count": job.sku_count,
            "action_hint": action_hint(shown, job.sku_count if job.delivery_stopped_at is not None else None),
            "degrade_reason": job.degrade_reason if shown != "failed" else None,
            "error_message": error_message(job.degrade_reason if shown == "failed" else None, failed,
                                           job.total_pages, job.failure_detail),
            "warnings": list(job.warnings or []),
            "llm_cost_usd": llm_cost_usd(job.evaluation, (p.llm_cost_usd for p in pages)),
            "result_available": job.result_uri is not None,
            "delivery_stopped": job.delivery_stopped_at is not None,  # a cancel the output service confirmed
            "config_version": job.config_version,  # the threshold profile version it is judged by
            "generation": job.generation,  # full reprocesses so far (POST /jobs/{id}/reprocess)
            **times(job),
            "trace_id": trace_id, "trace_url": trace_url(trace_ui, trace_id),  # None: its trace was not sampled
        }

    @router.get("/jobs/{job_id}/evaluation", responses=answer(several={
        "evaluated": examples.EVALUATED, "the evaluator failed on it": examples.EVALUATION_FAILED}))
    async def get_evaluation(job_id: JobId, caller: Caller) -> dict:
        """The evaluator's report (seed-001a §3.3): scores, thresholds, sampling and why the job went
        where it went; a job the evaluator failed on says so."""
        job = await own_job(ctx, job_id, caller.merchant_id)
        if job.evaluation is not None:
            return {"job_id": job.job_id, **job.evaluation}
        if job.status in ("EVAL_FAILED", "REJECTED"):
            return {"job_id": job.job_id, "route": None, "c_doc": None, "status": job.status,
                    "route_reason": error_message(job.degrade_reason, [], job.total_pages, job.failure_detail),
                    "degrade_reason": job.degrade_reason}
        raise HTTPException(409, f"job {job_id} has not been evaluated yet (status {job.status})")

    @router.get("/jobs/{job_id}/result", responses=answer(
        examples.RESULT, description="the result.json of the job, with signed links to its images"))
    async def get_result(job_id: JobId, caller: Caller) -> JSONResponse:
        job = await own_job(ctx, job_id, caller.merchant_id)
        if job.result_uri is None:
            raise HTTPException(409, no_result_yet(job_id, job.status))
        files_kept(job)
        stored = json.loads(await asyncio.to_thread(ctx.storage.get, job.result_uri))
        return JSONResponse(with_image_links(stored, job.result_uri, file_links.links(ctx.settings.jwt_secret)))

    @router.delete("/jobs/{job_id}", status_code=204, response_class=Response,
                   responses={409: {"description": "the job is still running: cancel it first"}})
    async def delete_job(job_id: JobId, caller: Caller) -> Response:
        """Delete the job and everything of it, in every service and in storage (the deletion itself
        stays in the audit log)."""
        await own_job(ctx, job_id, caller.merchant_id)
        async with ctx.db.transaction() as conn:
            job = (await conn.execute(sa.select(jobs).where(jobs.c.job_id == job_id).with_for_update())).one()
            if not settled(job.status, job.result_uri is not None):
                raise HTTPException(409, f"job {job_id} is {job.status}: cancel it before deleting it")
            await retention.delete_job(ctx, conn, job, caller)
        ctx.relay.wake()
        await retention.remove_files(ctx, job_id)
        return Response(status_code=204)

    return router
