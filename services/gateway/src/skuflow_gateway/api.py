"""The public REST API under /api/v1 (JWT bearer auth; every query is scoped to the caller's merchant)."""


import uuid
from typing import Annotated

import sqlalchemy as sa
from fastapi import APIRouter, Depends, File, Header, HTTPException, Request, UploadFile
from fastapi.responses import FileResponse
from pydantic_settings import SettingsConfigDict

from skuflow_contracts.events import JobCreated
from skuflow_contracts.profile import UnknownProfile, profile_for
from skuflow_gateway.domain.jobs import (
    ACTION_HINT,
    USER_ERROR_MESSAGES,
    UploadLimits,
    UploadRejected,
    check_upload,
    pages_done,
    user_status,
)
from skuflow_gateway.tables import job_pages, jobs
from skuflow_platform.auth import AuthError, Principal, bearer_principal
from skuflow_platform.outbox import add_to_outbox
from skuflow_platform.runtime import ServiceContext
from skuflow_platform.settings import PlatformSettings
from skuflow_platform.storage import sha256_hex
from skuflow_platform.tracing import current_traceparent, tracer

CHUNK = 1024 * 1024


class GatewaySettings(PlatformSettings):
    model_config = SettingsConfigDict(env_prefix="SKUFLOW_", extra="ignore")
    max_upload_mb: int = 100


def routes(ctx: ServiceContext) -> APIRouter:
    settings = GatewaySettings()
    limits = UploadLimits(max_bytes=settings.max_upload_mb * 1024 * 1024)
    router = APIRouter(prefix="/api/v1")

    def principal(authorization: Annotated[str | None, Header()] = None) -> Principal:
        try:
            return bearer_principal(authorization, ctx.settings.jwt_secret)
        except AuthError as exc:
            raise HTTPException(401, str(exc), headers={"WWW-Authenticate": "Bearer"}) from exc

    Caller = Annotated[Principal, Depends(principal)]

    async def own_job(job_id: str, caller: Principal) -> sa.Row:
        """Another merchant's job is indistinguishable from a missing one (no existence leak)."""
        async with ctx.db.transaction() as conn:
            row = (await conn.execute(sa.select(jobs).where(
                (jobs.c.job_id == job_id) & (jobs.c.merchant_id == caller.merchant_id)))).first()
        if row is None:
            raise HTTPException(404, f"job {job_id} not found")
        return row

    async def read_upload(request: Request, upload: UploadFile) -> bytes:
        declared = int(request.headers.get("content-length") or 0)
        if declared > limits.max_bytes + CHUNK:
            raise UploadRejected(413, f"the file is larger than the {settings.max_upload_mb} MB limit")
        data = bytearray()
        while chunk := await upload.read(CHUNK):
            data.extend(chunk)
            if len(data) > limits.max_bytes:
                break
        check_upload(bytes(data[:2048]), len(data), limits)
        return bytes(data)

    @router.post("/jobs", status_code=201)
    async def create_job(request: Request, caller: Caller,
                         file: Annotated[UploadFile, File(description="the PDF catalog")]) -> dict:
        try:
            pdf = await read_upload(request, file)
        except UploadRejected as exc:
            raise HTTPException(exc.status_code, exc.message) from exc
        try:
            profile_for(ctx.settings.config_version)  # the job is frozen to this profile (INV-09)
        except UnknownProfile as exc:
            raise HTTPException(503, str(exc)) from exc
        job_id = str(uuid.uuid4())
        file_hash = sha256_hex(pdf)
        file_uri = ctx.storage.put(f"jobs/{job_id}/source.pdf", pdf)
        filename = file.filename or "upload.pdf"
        with tracer().start_as_current_span("upload catalog"):
            async with ctx.db.transaction() as conn:
                await conn.execute(jobs.insert().values(
                    job_id=job_id, merchant_id=caller.merchant_id, uploaded_by=caller.user_id,
                    filename=filename, file_hash=file_hash, file_uri=file_uri, size_bytes=len(pdf),
                    status="EVALUATING"))
                await add_to_outbox(conn, ctx.tables.outbox, JobCreated(
                    filename=filename, file_uri=file_uri, file_hash=file_hash, size_bytes=len(pdf),
                    config_version=ctx.settings.config_version,
                ), job_id=job_id, merchant_id=caller.merchant_id, producer="gateway",
                    traceparent=current_traceparent())
        ctx.relay.wake()
        return {"job_id": job_id, "status": "EVALUATING", "user_status": user_status("EVALUATING"),
                "file_hash": file_hash}

    @router.get("/jobs")
    async def list_jobs(caller: Caller, limit: int = 50) -> list[dict]:
        async with ctx.db.transaction() as conn:
            rows = (await conn.execute(sa.select(jobs.c.job_id, jobs.c.filename, jobs.c.status)
                                       .where(jobs.c.merchant_id == caller.merchant_id)
                                       .order_by(jobs.c.created_at.desc()).limit(min(limit, 500)))).all()
        return [{"job_id": r.job_id, "filename": r.filename, "status": r.status,
                 "user_status": user_status(r.status)} for r in rows]

    @router.get("/jobs/{job_id}")
    async def get_job(job_id: str, caller: Caller) -> dict:
        job = await own_job(job_id, caller)
        async with ctx.db.transaction() as conn:
            seen = (await conn.execute(sa.select(sa.func.count()).select_from(job_pages)
                                       .where(job_pages.c.job_id == job_id))).scalar_one()
        done = pages_done(job.status, seen, job.total_pages)
        shown = user_status(job.status)
        total = job.total_pages or 0
        return {
            "job_id": job.job_id, "filename": job.filename, "status": job.status, "user_status": shown,
            "route": job.route, "total_pages": job.total_pages, "completed_pages": done,
            "progress_percent": round(100 * done / total, 1) if total else 0.0,
            "sku_count": job.sku_count, "action_hint": ACTION_HINT[shown],
            "error_message": USER_ERROR_MESSAGES.get(job.degrade_reason or "", job.degrade_reason),
            "result_available": job.result_uri is not None,
        }

    @router.get("/jobs/{job_id}/result")
    async def get_result(job_id: str, caller: Caller) -> FileResponse:
        job = await own_job(job_id, caller)
        if job.result_uri is None:
            raise HTTPException(409, f"job {job_id} has no result yet (status {job.status})")
        return FileResponse(ctx.storage.path(job.result_uri), media_type="application/json")

    return router
