"""The gateway's page read model: each page's state and latest reading as the pipeline reports it
(started, bound, dead-lettered, reviewed, sent to a person, imported downstream), and the job
timeline's page events."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import PageBound, PageFailed, PageImported, PageParsed, PageReviewed, TaskCreated
from skuflow_contracts.results import DEAD_LETTER, FAILED_PAGE_STATUSES
from skuflow_contracts.revisions import machine_revision, outranks
from skuflow_contracts.topics import (
    PAGE_BOUND,
    PAGE_FAILED,
    PAGE_IMPORTED,
    PAGE_PARSED,
    PAGE_REVIEWED,
    TASK_CREATED,
)
from skuflow_gateway import completion, timeline
from skuflow_gateway.domain.page_states import PAGE, PENDING, reading_trigger, review_trigger
from skuflow_gateway.tables import job_pages, jobs, platform
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.metrics import count_outranked, once_committed
from skuflow_platform.states import Refused


@dataclass(frozen=True)
class Move:
    """A page move that was written, the status the page left, and the completion the job held
    (read under the job's lock, for ``completion.after_page_event``)."""

    before: str | None
    held: dict | None

    @property
    def unstarted(self) -> bool:
        """Had the page's start gone unreported? Its reading (or failure) may be heard before its
        page.parsed (two topics keep no order between them); the start is then reported with it, so
        the timeline starts every page it completes."""
        return self.before in (None, PENDING)


@dataclass(frozen=True)
class Locked:
    """What a page event needs, read once the job is locked: the job's generation, facts and held
    completion, and the page's status and revision (None: no row for the page yet)."""

    generation: int
    total_pages: int | None
    warnings: list[str] | None
    pending_completion: dict | None
    status: str | None
    revision: int | None


async def _page_row(uow: UnitOfWork, page: int) -> sa.Row | None:
    return (await uow.conn.execute(sa.select(job_pages.c.status, job_pages.c.revision).where(
        job_pages.c.job_id == uow.envelope.job_id, job_pages.c.page == page))).first()


async def _lock(uow: UnitOfWork, page: int) -> Locked | None:
    """Lock the job row (a job's page events then apply one at a time), then read the page: two
    statements, since a statement that waits for the lock reads the other tables as they were when it
    began (under READ COMMITTED only the locked row is read again), so a page read in the same
    statement can miss the reading the lock's holder just wrote, and a late page.parsed would then
    undo it. None for a job the gateway does not know."""
    job = (await uow.conn.execute(
        sa.select(jobs.c.generation, jobs.c.total_pages, jobs.c.warnings, jobs.c.pending_completion)
        .where(jobs.c.job_id == uow.envelope.job_id).with_for_update())).first()
    if job is None:
        return None
    row = await _page_row(uow, page)
    return Locked(job.generation, job.total_pages, job.warnings, job.pending_completion,
                  row.status if row else None, row.revision if row else None)


async def _job_facts(uow: UnitOfWork, job: Locked, total_pages: int | None, warnings: list[str] | None) -> None:
    """Every page event repeats the job's page count (and warnings): the row is written only when one changes."""
    facts = {name: value for name, value in (("total_pages", total_pages), ("warnings", warnings))
             if value and value != getattr(job, name)}
    if facts:
        await uow.conn.execute(jobs.update().where(jobs.c.job_id == uow.envelope.job_id).values(**facts))


async def _move_page(uow: UnitOfWork, page: int, trigger: str, *, total_pages: int | None = None,
                     warnings: list[str] | None = None, **values: object) -> Move | None:
    """Fire ``trigger`` on the page (``domain/page_states.PAGE``) and write ``values`` with its new
    status and an audit row; None when the table refuses the move (a late or repeated event) or
    the event belongs to a reading a full reprocess replaced, and nothing but the job's facts is
    written."""
    job_id = uow.envelope.job_id
    job = await _lock(uow, page)
    if job is None:  # not (or no longer) the gateway's job: the page row alone, as the events tell it
        current = await _page_row(uow, page)
    else:
        await _job_facts(uow, job, total_pages, warnings)
        if uow.envelope.payload.generation < job.generation:
            return None
        current = job if job.status is not None else None
    before = current.status if current else None
    if "revision" in values and current is not None and not outranks(values["revision"], current.revision):
        once_committed(count_outranked, values["revision"], current.revision)
        return None  # an older review or re-read arriving late, or a re-read of a reviewed page
    try:
        status = PAGE.fire(before, trigger)
    except Refused:
        return None
    stmt = pg_insert(job_pages).values(job_id=job_id, page=page, status=status, **values)
    await uow.conn.execute(stmt.on_conflict_do_update(
        index_elements=[job_pages.c.job_id, job_pages.c.page],
        set_={"status": status, **values, "updated_at": sa.func.now()}))
    await uow.transition("page", f"{job_id}/{page}", before, status, detail={"trigger": trigger})
    return Move(before, job.pending_completion if job is not None else None)


async def reprocess_pages(conn: AsyncConnection, job_id: str, total_pages: int, generation: int) -> None:
    """Every page of the job back to PENDING for a full reprocess, its earlier reading cleared and
    its revision that of the coming reading (older import notices then change nothing); audited."""
    before = {row.page: row.status for row in await conn.execute(
        sa.select(job_pages.c.page, job_pages.c.status).where(job_pages.c.job_id == job_id))}
    pages = range(1, total_pages + 1)
    fresh = {"status": PENDING, "revision": machine_revision(generation), "result": None, "error": None,
             "import_status": None, "started_at": None}
    stmt = pg_insert(job_pages).values([{"job_id": job_id, "page": page, **fresh} for page in pages])
    await conn.execute(stmt.on_conflict_do_update(index_elements=[job_pages.c.job_id, job_pages.c.page],
                                                  set_={**fresh, "updated_at": sa.func.now()}))
    await conn.execute(platform.state_transitions.insert(), [
        {"entity": "page", "entity_id": f"{job_id}/{page}", "from_status": before.get(page),
         "to_status": PAGE.fire(before.get(page), "reprocess"), "detail": {"trigger": "reprocess",
                                                                         "generation": generation}}
        for page in pages])


async def _report_start(uow: UnitOfWork, page: int) -> None:
    await timeline.record(uow.conn, uow.envelope.job_id, timeline.PAGE_STARTED, page_no=page, phase="ai_processing")


def subscriptions():
    async def on_page_parsed(envelope: EventEnvelope[PageParsed], uow: UnitOfWork) -> None:
        parsed = envelope.payload
        if await _move_page(uow, parsed.page, "parsed", total_pages=parsed.total_pages, started_at=sa.func.now()):
            await _report_start(uow, parsed.page)

    async def on_page_bound(envelope: EventEnvelope[PageBound], uow: UnitOfWork) -> None:
        bound = envelope.payload
        result = bound.result
        error = "; ".join(result.review_reasons) or "the page could not be read" \
            if result.status in FAILED_PAGE_STATUSES else None
        # a re-read after a correction is checked on its revision; the first reading, on the page's state
        reread = {"revision": machine_revision(bound.generation, bound.reading)} if bound.reading else {}
        moved = await _move_page(uow, bound.page, reading_trigger(result.status, bound.reading),
                                 total_pages=bound.total_pages, warnings=bound.document_warnings,
                                 result=result.model_dump(mode="json"), error=error, llm_cost_usd=bound.llm_cost_usd,
                                 **reread)
        if moved:
            if moved.unstarted:
                await _report_start(uow, bound.page)
            await timeline.record(uow.conn, envelope.job_id, timeline.PAGE_COMPLETED, page_no=bound.page,
                                  status=result.status, skus_found=len(result.skus),
                                  needs_review=result.needs_review)
            await completion.after_page_event(uow.conn, envelope.job_id, moved.held)

    async def on_page_failed(envelope: EventEnvelope[PageFailed], uow: UnitOfWork) -> None:
        failed = envelope.payload
        error = f"{failed.stage}: {failed.error}"
        moved = await _move_page(uow, failed.page, "dead_lettered", total_pages=failed.total_pages, result=None,
                                 error=error, llm_cost_usd=0.0)
        if moved:
            if moved.unstarted:
                await _report_start(uow, failed.page)
            await timeline.record(uow.conn, envelope.job_id, timeline.PAGE_COMPLETED, page_no=failed.page,
                                  status=DEAD_LETTER, skus_found=0, error=error)
            await completion.after_page_event(uow.conn, envelope.job_id, moved.held)

    async def on_page_reviewed(envelope: EventEnvelope[PageReviewed], uow: UnitOfWork) -> None:
        """A person's reading replaces the machine's (a later revision replaces an earlier one)."""
        reviewed = envelope.payload
        moved = await _move_page(uow, reviewed.page, review_trigger(reviewed.result.status),
                                 result=reviewed.result.model_dump(mode="json"), revision=reviewed.revision, error=None)
        if moved:
            await timeline.record(uow.conn, envelope.job_id, timeline.PAGE_REVIEWED, page_no=reviewed.page,
                                  status=reviewed.result.status, skus_found=len(reviewed.result.skus),
                                  revision=reviewed.revision)
            await completion.after_page_event(uow.conn, envelope.job_id, moved.held)

    async def on_task_created(envelope: EventEnvelope[TaskCreated], uow: UnitOfWork) -> None:
        task = envelope.payload
        await timeline.record(uow.conn, envelope.job_id, timeline.HUMAN_NEEDED, page_no=task.page,
                              task_type=task.task_type, task_id=task.task_id, reason=task.reason)

    async def on_page_imported(envelope: EventEnvelope[PageImported], uow: UnitOfWork) -> None:
        """The page's import as of its latest revision; the notice of a revision the page's outranks (an
        older one, a re-read a review replaced) changes nothing. A notice that overtakes the page's
        reading creates the row, which the reading then fills."""
        imported = envelope.payload
        current = (await uow.conn.execute(sa.select(job_pages.c.revision).where(
            job_pages.c.job_id == envelope.job_id, job_pages.c.page == imported.page).with_for_update())).scalar()
        if current is not None and outranks(current, imported.revision):
            return
        stmt = pg_insert(job_pages).values(job_id=envelope.job_id, page=imported.page,
                                           status=PAGE.fire(None, "parsed"), import_status=imported.status)
        await uow.conn.execute(stmt.on_conflict_do_update(
            index_elements=[job_pages.c.job_id, job_pages.c.page],
            set_={"import_status": imported.status, "updated_at": sa.func.now()}))
        await timeline.record(uow.conn, envelope.job_id, timeline.PAGE_IMPORTED, page_no=imported.page,
                              status=imported.status, revision=imported.revision, skus=imported.sku_count,
                              attempts=imported.attempts, error=imported.error)

    return [(PAGE_PARSED, on_page_parsed), (PAGE_BOUND, on_page_bound), (PAGE_FAILED, on_page_failed),
            (PAGE_REVIEWED, on_page_reviewed), (TASK_CREATED, on_task_created), (PAGE_IMPORTED, on_page_imported)]
