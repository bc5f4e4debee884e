"""The gateway's page read model: each page's state and latest reading as the pipeline reports it
(started, bound, dead-lettered, reviewed, sent to a person, imported downstream), and the job
timeline's page events."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import PageBound, PageFailed, PageImported, PageParsed, PageReviewed, TaskCreated
from skuflow_contracts.results import DEAD_LETTER, FAILED_PAGE_STATUSES, PageResult
from skuflow_contracts.topics import (
    PAGE_BOUND,
    PAGE_FAILED,
    PAGE_IMPORTED,
    PAGE_PARSED,
    PAGE_REVIEWED,
    TASK_CREATED,
)
from skuflow_gateway import timeline
from skuflow_gateway.domain.progress import PAGE_STARTED
from skuflow_gateway.tables import job_pages, jobs
from skuflow_platform.consumer import UnitOfWork

AUTOMATIC_REVISION = 1


async def _job_facts(uow: UnitOfWork, total_pages: int | None, warnings: list[str] | None = None) -> None:
    facts: dict[str, object] = {"total_pages": total_pages} if total_pages else {}
    if warnings:
        facts["warnings"] = warnings
    if facts:
        await uow.conn.execute(jobs.update().where(jobs.c.job_id == uow.envelope.job_id).values(**facts))


async def _page_done(uow: UnitOfWork, page: int, status: str, result: PageResult | None, error: str | None = None,
                     llm_cost_usd: float = 0.0) -> bool:
    """Record the machine's reading of a page (or its failure); a page a person has reviewed keeps
    the person's reading, and a failure reported after the page was read (a later stage, such as
    creating its review task, dead-lettered) does not undo the reading, as in the output service.
    True when it was recorded."""
    values = {"status": status, "error": error, "llm_cost_usd": llm_cost_usd,
              "result": result.model_dump(mode="json") if result else None}
    stmt = pg_insert(job_pages).values(job_id=uow.envelope.job_id, page=page, **values)
    replaceable = job_pages.c.revision == AUTOMATIC_REVISION
    if result is None:
        replaceable = replaceable & job_pages.c.result.is_(None)
    done = await uow.conn.execute(stmt.on_conflict_do_update(
        index_elements=[job_pages.c.job_id, job_pages.c.page], set_={**values, "updated_at": sa.func.now()},
        where=replaceable).returning(job_pages.c.page))
    return done.first() is not None


def subscriptions():
    async def on_page_parsed(envelope: EventEnvelope[PageParsed], uow: UnitOfWork) -> None:
        parsed = envelope.payload
        started = await uow.conn.execute(pg_insert(job_pages).values(
            job_id=envelope.job_id, page=parsed.page, status=PAGE_STARTED, started_at=sa.func.now(),
        ).on_conflict_do_nothing().returning(job_pages.c.page))
        await _job_facts(uow, parsed.total_pages)
        if started.first() is not None:
            await timeline.record(uow.conn, envelope.job_id, timeline.PAGE_STARTED, page_no=parsed.page,
                                  phase="ai_processing")

    async def on_page_bound(envelope: EventEnvelope[PageBound], uow: UnitOfWork) -> None:
        bound = envelope.payload
        result = bound.result
        error = "; ".join(result.review_reasons) or "the page could not be read" \
            if result.status in FAILED_PAGE_STATUSES else None
        await _job_facts(uow, bound.total_pages, bound.document_warnings)
        if await _page_done(uow, bound.page, result.status, result, error, bound.llm_cost_usd):
            await timeline.record(uow.conn, envelope.job_id, timeline.PAGE_COMPLETED, page_no=bound.page,
                                  status=result.status, skus_found=len(result.skus),
                                  needs_review=result.needs_review)

    async def on_page_failed(envelope: EventEnvelope[PageFailed], uow: UnitOfWork) -> None:
        failed = envelope.payload
        await _job_facts(uow, failed.total_pages)
        error = f"{failed.stage}: {failed.error}"
        if await _page_done(uow, failed.page, DEAD_LETTER, None, error):
            await timeline.record(uow.conn, envelope.job_id, timeline.PAGE_COMPLETED, page_no=failed.page,
                                  status=DEAD_LETTER, skus_found=0, error=error)

    async def on_page_reviewed(envelope: EventEnvelope[PageReviewed], uow: UnitOfWork) -> None:
        """A person's reading replaces the machine's (a later revision replaces an earlier one)."""
        reviewed = envelope.payload
        values = {"status": reviewed.result.status, "result": reviewed.result.model_dump(mode="json"),
                  "revision": reviewed.revision, "error": None}
        stmt = pg_insert(job_pages).values(job_id=envelope.job_id, page=reviewed.page, **values)
        applied = await uow.conn.execute(stmt.on_conflict_do_update(
            index_elements=[job_pages.c.job_id, job_pages.c.page], set_={**values, "updated_at": sa.func.now()},
            where=job_pages.c.revision < reviewed.revision).returning(job_pages.c.page))
        if applied.first() is not None:
            await timeline.record(uow.conn, envelope.job_id, timeline.PAGE_REVIEWED, page_no=reviewed.page,
                                  status=reviewed.result.status, skus_found=len(reviewed.result.skus),
                                  revision=reviewed.revision)

    async def on_task_created(envelope: EventEnvelope[TaskCreated], uow: UnitOfWork) -> None:
        task = envelope.payload
        await timeline.record(uow.conn, envelope.job_id, timeline.HUMAN_NEEDED, page_no=task.page,
                              task_type=task.task_type, task_id=task.task_id, reason=task.reason)

    async def on_page_imported(envelope: EventEnvelope[PageImported], uow: UnitOfWork) -> None:
        """The page's import as of its latest revision; an older revision's notice changes nothing.
        A notice that overtakes the page's reading creates the row, which the reading then fills."""
        imported = envelope.payload
        stmt = pg_insert(job_pages).values(job_id=envelope.job_id, page=imported.page, status=PAGE_STARTED,
                                           revision=imported.revision, import_status=imported.status)
        applied = await uow.conn.execute(stmt.on_conflict_do_update(
            index_elements=[job_pages.c.job_id, job_pages.c.page],
            set_={"import_status": imported.status, "updated_at": sa.func.now()},
            where=job_pages.c.revision <= imported.revision).returning(job_pages.c.page))
        if applied.first() is not None:
            await timeline.record(uow.conn, envelope.job_id, timeline.PAGE_IMPORTED, page_no=imported.page,
                                  status=imported.status, revision=imported.revision, skus=imported.sku_count,
                                  attempts=imported.attempts, error=imported.error)

    return [(PAGE_PARSED, on_page_parsed), (PAGE_BOUND, on_page_bound), (PAGE_FAILED, on_page_failed),
            (PAGE_REVIEWED, on_page_reviewed), (TASK_CREATED, on_task_created), (PAGE_IMPORTED, on_page_imported)]
