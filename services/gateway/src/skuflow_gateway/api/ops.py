"""The operators' back office of the gateway (seed-001b §2.5), scoped like everything else to the
caller's merchant: a dashboard of the day, pages stuck in reading, retrying the failed pages of
many jobs at once, and the history of profile changes. Task batches (skip, reassign) are collab's,
which owns tasks."""

from typing import Annotated

import sqlalchemy as sa
from fastapi import APIRouter, HTTPException, Query
from pydantic import BaseModel, ConfigDict, Field

from skuflow_gateway.api import examples
from skuflow_gateway.api.auth import caller_dependency
from skuflow_gateway.api.control import retry_pages
from skuflow_gateway.api.profiles import change_of, profile_entity_of
from skuflow_gateway.domain.job_states import JOB
from skuflow_gateway.domain.jobs import user_status, utc_iso
from skuflow_gateway.domain.page_states import AI_PROCESSING, DEAD_LETTER, HUMAN_QUEUED
from skuflow_gateway.domain.progress import page_breakdown
from skuflow_gateway.tables import job_pages, jobs, platform
from skuflow_platform.access import OPERATORS, SUPERVISORS
from skuflow_platform.openapi import answer
from skuflow_platform.runtime import ServiceContext

STUCK_MINUTES = 30.0  # as the stuck-job watchdog's default


class JobBatch(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"job_ids": ["3f2c9d4e-0c1b-4b7e-9a51-2f6f1c0d9e11"]}]})

    job_ids: Annotated[list[Annotated[str, Field(min_length=1, max_length=100)]], Field(min_length=1, max_length=500)]


def routes(ctx: ServiceContext) -> APIRouter:
    router = APIRouter(prefix="/ops", tags=["ops"])
    Operator = caller_dependency(ctx, *OPERATORS)
    Supervisor = caller_dependency(ctx, *SUPERVISORS)

    @router.get("/dashboard", responses=answer(examples.DASHBOARD))
    async def dashboard(who: Operator) -> dict:
        """Today's uploads and SKUs, jobs by status, pages waiting for people, failed and stuck."""
        mine = jobs.c.merchant_id == who.merchant_id
        today = jobs.c.created_at >= sa.func.date_trunc("day", sa.func.now())
        async with ctx.db.transaction() as conn:
            by_status = dict((await conn.execute(sa.select(jobs.c.status, sa.func.count()).where(mine)
                                                 .group_by(jobs.c.status))).all())
            uploads, skus = (await conn.execute(sa.select(sa.func.count(), sa.func.coalesce(
                sa.func.sum(jobs.c.sku_count), 0)).where(mine, today))).one()
            pages = (await conn.execute(sa.select(job_pages.c.status, job_pages.c.import_status).join(
                jobs, jobs.c.job_id == job_pages.c.job_id).where(mine, jobs.c.status.not_in(JOB.final)))).all()
        return {"today": {"uploads": uploads, "skus": int(skus)}, "jobs_by_status": by_status,
                "active_jobs": sum(n for status, n in by_status.items() if status not in JOB.final),
                "pages_of_active_jobs": page_breakdown([p.status for p in pages], None),
                "imports_of_active_jobs": page_breakdown([p.import_status for p in pages if p.import_status], None),
                "waiting_for_people": sum(1 for p in pages if p.status == HUMAN_QUEUED)}

    @router.get("/in-flight", responses=answer(examples.IN_FLIGHT))
    async def in_flight(who: Supervisor) -> dict:
        """For the ops page: the jobs still running, oldest first, with their pages by state, and the
        dead-lettered pages of any job (the merchant's DLQ depth: pages a replay or a retry must fetch)."""
        mine = jobs.c.merchant_id == who.merchant_id
        async with ctx.db.transaction() as conn:
            running = (await conn.execute(sa.select(jobs).where(mine, jobs.c.status.not_in(JOB.final)).order_by(
                jobs.c.created_at, jobs.c.job_id))).all()
            pages = (await conn.execute(sa.select(job_pages.c.job_id, job_pages.c.page, job_pages.c.status).where(
                job_pages.c.job_id.in_([job.job_id for job in running])))).all()
            dead = (await conn.execute(sa.select(jobs.c.job_id, jobs.c.filename, job_pages.c.page).join(
                job_pages, jobs.c.job_id == job_pages.c.job_id).where(mine, job_pages.c.status == DEAD_LETTER)
                .order_by(jobs.c.created_at, jobs.c.job_id, job_pages.c.page))).all()
        states: dict[str, list[str]] = {job.job_id: [] for job in running}
        for page in pages:
            states[page.job_id].append(page.status)
        lettered: dict[str, dict] = {}
        for row in dead:
            lettered.setdefault(row.job_id, {"job_id": row.job_id, "filename": row.filename, "pages": []})[
                "pages"].append(row.page)
        return {"jobs": [{"job_id": job.job_id, "filename": job.filename, "status": job.status,
                          "user_status": user_status(job.status), "created_at": utc_iso(job.created_at),
                          "total_pages": job.total_pages, "pages": page_breakdown(states[job.job_id], job.total_pages),
                          "waiting_for_people": states[job.job_id].count(HUMAN_QUEUED)} for job in running],
                "dead_letters": {"pages": len(dead), "jobs": list(lettered.values())}}

    @router.get("/pages/stuck", responses=answer(examples.STUCK))
    async def stuck_pages(who: Operator, minutes: Annotated[float, Query(gt=0, le=10_000)] = STUCK_MINUTES,
                          limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> dict:
        """Pages started longer than ``minutes`` ago with no reading yet, oldest first."""
        idle = sa.func.extract("epoch", sa.func.now() - job_pages.c.updated_at)
        async with ctx.db.transaction() as conn:
            rows = (await conn.execute(sa.select(job_pages.c.job_id, job_pages.c.page, idle.label("idle")).join(
                jobs, jobs.c.job_id == job_pages.c.job_id).where(
                jobs.c.merchant_id == who.merchant_id, job_pages.c.status == AI_PROCESSING,
                idle > minutes * 60).order_by(job_pages.c.updated_at).limit(limit))).all()
        return {"minutes": minutes, "pages": [{"job_id": r.job_id, "page": r.page,
                                               "idle_seconds": round(float(r.idle))} for r in rows]}

    @router.post("/jobs/batch-retry", responses=answer(examples.BATCH_RETRY))
    async def batch_retry(body: JobBatch, who: Operator) -> dict:
        """Retry the failed pages of each job; each job answers on its own (one refusal stops none)."""
        outcomes = {}
        for job_id in dict.fromkeys(body.job_ids):
            try:
                outcomes[job_id] = {"retried_pages": (await retry_pages(ctx, job_id, who, None))["retried_pages"]}
            except HTTPException as exc:
                outcomes[job_id] = {"refused": exc.status_code, "reason": exc.detail}
        return {"jobs": outcomes}

    @router.get("/config/audit-log", responses=answer(examples.AUDIT_LOG))
    async def config_audit_log(who: Operator, limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> dict:
        """Every change of the merchant's threshold profiles, newest first."""
        audit = platform.state_transitions
        async with ctx.db.transaction() as conn:
            rows = (await conn.execute(sa.select(audit).where(
                audit.c.entity == "profile", *profile_entity_of(audit.c.entity_id, who.merchant_id))
                .order_by(audit.c.id.desc()).limit(limit))).all()
        return {"changes": [change_of(row) for row in rows]}

    return router
