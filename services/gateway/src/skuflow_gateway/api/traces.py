"""A page's trace bundle (seed-001b §3.2, T67): what every stage saw and decided on the page, to
download and replay offline (``skuflow replay``)."""

import asyncio

from fastapi import APIRouter, HTTPException
from fastapi.responses import JSONResponse

from skuflow_contracts.traces import STAGES, trace_key
from skuflow_gateway.api import examples
from skuflow_gateway.api.auth import caller_dependency, own_job
from skuflow_gateway.api.jobs import JobId, files_kept
from skuflow_gateway.api.pages import PageNo
from skuflow_gateway.domain.traces import NoTrace, assemble, exported
from skuflow_platform.openapi import answer
from skuflow_platform.runtime import ServiceContext
from skuflow_platform.storage import SCHEME, LocalStorage


def stored_records(storage: LocalStorage, job_id: str, page: int) -> dict[str, bytes]:
    paths = {stage: storage.path(SCHEME + trace_key(job_id, page, stage)) for stage in STAGES}
    return {stage: path.read_bytes() for stage, path in paths.items() if path.is_file()}


def routes(ctx: ServiceContext) -> APIRouter:
    router = APIRouter(tags=["pages"])
    Caller = caller_dependency(ctx)

    @router.get("/jobs/{job_id}/pages/{page}/trace", responses={
        **answer(examples.TRACE, description="the page's trace bundle (redacted), as a JSON attachment"),
        404: {"description": "no such job of the caller's merchant, no such page, or no stage recorded it"},
        410: {"description": "the job's files, traces among them, were removed after their retention period"}})
    async def get_trace(job_id: JobId, page: PageNo, caller: Caller) -> JSONResponse:
        """What every stage saw and decided on the page: its inputs (IR and images by key and hash), the
        classification detail, the reader's stages and scores, the bindings and their candidates, each
        stage's timing. Prices, phone and ID numbers are masked outside the whitelist; images are hashes."""
        job = await own_job(ctx, job_id, caller.merchant_id)
        if job.total_pages is not None and page > job.total_pages:
            raise HTTPException(404, f"job {job_id} has no page {page} (it has {job.total_pages})")
        files_kept(job)
        try:
            bundle = assemble(job_id, page, await asyncio.to_thread(stored_records, ctx.storage, job_id, page))
        except NoTrace as exc:
            raise HTTPException(404, str(exc)) from None
        name = f"{job_id}-page-{page:03d}-trace.json"
        return JSONResponse(exported(bundle), headers={"Content-Disposition": f'attachment; filename="{name}"'})

    return router
