"""A job's pages and SKUs as they come (seed-001b §2.1): each page's state and latest reading, its
rendered screenshot, and the SKUs read so far, filtered and paginated, as JSON or CSV."""


import asyncio
from typing import Annotated, Literal

import pymupdf
import sqlalchemy as sa
from fastapi import APIRouter, HTTPException, Path, Query
from fastapi.responses import Response

from skuflow_contracts.reasons import explain_all
from skuflow_contracts.results import PageResult, ResultDocument
from skuflow_gateway.api import examples
from skuflow_gateway.api.auth import caller_dependency, own_job
from skuflow_gateway.api.jobs import JobId, files_kept
from skuflow_gateway.domain.job_states import CANCELLED
from skuflow_gateway.domain.jobs import no_result_yet
from skuflow_gateway.domain.skus import matches, sku_rows, to_csv
from skuflow_gateway.tables import job_pages
from skuflow_platform.openapi import JSON, answer, shown
from skuflow_platform.runtime import ServiceContext

PageNo = Annotated[int, Path(ge=1, le=100_000)]
SCREENSHOT_DPI = 100


def render_page(pdf_path: str, page: int, dpi: int = SCREENSHOT_DPI) -> bytes:
    with pymupdf.open(pdf_path) as document:
        return document[page - 1].get_pixmap(dpi=dpi).tobytes("png")


def page_summary(row: sa.Row) -> dict:
    result = row.result or {}
    return {"page": row.page, "status": row.status, "revision": row.revision, "error": row.error,
            "import_status": row.import_status,
            "page_type": result.get("page_type"), "layout": result.get("layout"),
            "needs_review": result.get("needs_review"), "review_reasons": result.get("review_reasons", []),
            "reasons": explain_all(result.get("review_reasons", [])), "sku_count": len(result.get("skus", []))}


def routes(ctx: ServiceContext) -> APIRouter:
    router = APIRouter(tags=["pages"])
    Caller = caller_dependency(ctx)

    async def page_rows(job_id: str, page: int | None = None) -> list[sa.Row]:
        query = sa.select(job_pages).where(job_pages.c.job_id == job_id).order_by(job_pages.c.page)
        if page is not None:
            query = query.where(job_pages.c.page == page)
        async with ctx.db.transaction() as conn:
            return (await conn.execute(query)).all()

    async def readings(job: sa.Row, page: int | None) -> list[PageResult]:
        """The pages' latest readings; a cancelled job's are those of its result, which holds what it
        delivered (the pages read after the cancel went nowhere)."""
        if job.status != CANCELLED:
            return [PageResult.model_validate(row.result) for row in await page_rows(job.job_id, page) if row.result]
        if job.result_uri is None:
            raise HTTPException(409, no_result_yet(job.job_id, job.status))
        files_kept(job)
        delivered = ResultDocument.model_validate_json(await asyncio.to_thread(ctx.storage.get, job.result_uri))
        return [reading for reading in delivered.pages if page is None or reading.page == page]

    @router.get("/jobs/{job_id}/pages", responses=answer(examples.PAGES))
    async def list_pages(job_id: JobId, caller: Caller) -> dict:
        job = await own_job(ctx, job_id, caller.merchant_id)
        return {"job_id": job_id, "total_pages": job.total_pages,
                "pages": [page_summary(row) for row in await page_rows(job_id)]}

    @router.get("/jobs/{job_id}/pages/{page}", responses=answer(examples.PAGE))
    async def get_page(job_id: JobId, page: PageNo, caller: Caller) -> dict:
        """The page's state and its whole reading: SKUs, images, bindings and the trace of how it was
        read (extraction method, fallback, validation, review reasons)."""
        await own_job(ctx, job_id, caller.merchant_id)
        rows = await page_rows(job_id, page)
        if not rows:
            raise HTTPException(404, f"page {page} of job {job_id} has not been read yet")
        row = rows[0]
        return {**page_summary(row), "result": row.result,
                "screenshot_url": f"/api/v1/jobs/{job_id}/pages/{page}/screenshot"}

    @router.get("/jobs/{job_id}/pages/{page}/screenshot", response_class=Response,
                responses={200: {"content": {"image/png": {}},
                                 "description": f"the page rendered as a PNG at {SCREENSHOT_DPI} dpi"}})
    async def get_screenshot(job_id: JobId, page: PageNo, caller: Caller) -> Response:
        job = await own_job(ctx, job_id, caller.merchant_id)
        if job.total_pages is None or page > job.total_pages:
            raise HTTPException(404, f"job {job_id} has no page {page}")
        files_kept(job)
        png = await asyncio.to_thread(render_page, str(ctx.storage.path(job.file_uri)), page)
        return Response(png, media_type="image/png")

    @router.get("/jobs/{job_id}/skus", responses={200: {"content": {
        JSON: shown(examples.SKUS), "text/csv": shown(examples.SKUS_CSV)}},
        409: {"description": "the job was cancelled and its delivery has not stopped yet"}})
    async def list_skus(job_id: JobId, caller: Caller,
                        page: Annotated[int | None, Query(ge=1)] = None,
                        validity: Literal["valid", "invalid"] | None = None,
                        q: Annotated[str | None, Query(max_length=200, description="text in any attribute")] = None,
                        offset: Annotated[int, Query(ge=0)] = 0,
                        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
                        format: Literal["json", "csv"] = "json"):
        """The SKUs read so far, by page and reading order; a reviewed page shows the person's reading.
        A cancelled job's are those it delivered before the cancel (409 until delivery has stopped)."""
        job = await own_job(ctx, job_id, caller.merchant_id)
        found = [row for row in sku_rows(await readings(job, page)) if matches(row, validity, q)]
        if format == "csv":
            return Response(to_csv(found), media_type="text/csv; charset=utf-8",
                            headers={"Content-Disposition": f'attachment; filename="{job_id}-skus.csv"'})
        return {"job_id": job_id, "total": len(found), "offset": offset, "limit": limit,
                "skus": found[offset:offset + limit]}

    return router
