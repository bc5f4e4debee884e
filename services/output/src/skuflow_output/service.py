"""Output service wiring: page results in, sku.delivered per SKU of a final page (sku.superseded when a
newer revision replaces it: a review, a re-read after a correction, a reprocess), an HTTP import of
the page when a receiver is configured (importer.py), job.completed when all pages are in (and, with
the importer, all imported: INV-04) and again when the last review is; a cancelled job delivers
nothing more (job.cancel-confirmed says so)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import (
    JobCancelConfirmed,
    JobCancelled,
    JobCompleted,
    PageBound,
    PageFailed,
    PageImported,
    PageReviewed,
    SkuDelivered,
    SkuSuperseded,
)
from skuflow_contracts.ids import delivery_key
from skuflow_contracts.profile import UnknownProfile
from skuflow_contracts.results import (
    FAILED_PAGE_STATUSES,
    JobSummary,
    PageResult,
    ResultDocument,
    reader_version_of,
)
from skuflow_contracts.revisions import machine_revision, outranks
from skuflow_contracts.topics import JOB_CANCELLED, PAGE_BOUND, PAGE_FAILED, PAGE_IMPORTED, PAGE_REVIEWED
from skuflow_output.deliveries import deliver_skus, live_deliveries, move_skus
from skuflow_output.domain.completion import (
    CANCELLED,
    assemble,
    delivered_part,
    failed_page,
    is_complete,
    is_final,
    job_status,
    valid_sku_count,
)
from skuflow_output.domain.imports import imports_settled
from skuflow_output.domain.skus import SUPERSEDED, content_key
from skuflow_output.export import write_result
from skuflow_output.importer import Importer, ImportSettings, enqueue, job_import_statuses, linked_images, stop_job
from skuflow_output.metrics import count_delivered, count_page
from skuflow_output.tables import deliveries, jobs, metadata, page_results, platform, profiles
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.metrics import UNKNOWN_LABEL, count_outranked, once_committed
from skuflow_platform.profiles import ProfileBook
from skuflow_platform.runtime import Periodic, ServiceContext, ServiceDefinition, Subscriptions
from skuflow_platform.signed_urls import FileLinks, FileLinkSettings
from skuflow_platform.storage import SCHEME
from skuflow_platform.tracing import stage


async def _lock_job(uow: UnitOfWork, **facts: object) -> sa.Row:
    """Create the job row on first sight, or lock it, so page events of one job apply one by one; in
    one statement (an upsert's update locks the row it returns)."""
    known = {k: v for k, v in facts.items() if v is not None}
    return (await uow.conn.execute(pg_insert(jobs).values(
        job_id=uow.envelope.job_id, merchant_id=uow.envelope.merchant_id, status="PROCESSING", **known,
    ).on_conflict_do_update(index_elements=[jobs.c.job_id], set_=known or {"status": jobs.c.status})
        .returning(*jobs.c))).one()


async def _job_of(uow: UnitOfWork, generation: int, **facts: object) -> sa.Row | None:
    """The locked job row, moved on to ``generation`` by a full reprocess's first page event; None when
    nothing more of the job goes downstream (cancelled) or the event belongs to a replaced generation."""
    job = await _lock_job(uow, **facts)
    if job.status == CANCELLED or generation < job.generation:
        return None
    return await _lock_job(uow, generation=generation) if generation > job.generation else job


async def _put_result(uow: UnitOfWork, page: int, result: PageResult, revision: int, generation: int,
                      replaces: Callable[[sa.Row], bool], error: str | None = None) -> bool:
    """The page's result row, written, or replacing the one there when ``replaces`` it (the job row's
    lock makes the read and the write one step); False when the row there is kept."""
    stored = (await uow.conn.execute(sa.select(page_results.c.status, page_results.c.revision,
                                               page_results.c.generation).where(
        page_results.c.job_id == uow.envelope.job_id, page_results.c.page == page))).first()
    if stored is not None and not replaces(stored):
        return False
    stmt = pg_insert(page_results).values(job_id=uow.envelope.job_id, page=page, status=result.status,
                                          result=result.model_dump(mode="json"), revision=revision,
                                          generation=generation, error=error)
    await uow.conn.execute(stmt.on_conflict_do_update(
        index_elements=[page_results.c.job_id, page_results.c.page],
        set_={name: stmt.excluded[name] for name in ("status", "result", "error", "revision", "generation")}))
    return True


async def _supersede(uow: UnitOfWork, page: int, revision: int, kept: list[str]) -> None:
    """Every other revision's deliveries of the page but ``kept``: ``revision`` replaced the page's result,
    so it outranks them all (a review of an earlier reading outranks a later re-read, whatever their
    numbers)."""
    job_id, merchant = uow.envelope.job_id, uow.envelope.merchant_id
    replaced = await move_skus(uow.conn, "supersede", deliveries.c.job_id == job_id, deliveries.c.page == page,
                               deliveries.c.revision != revision, deliveries.c.sku_id.not_in(kept))
    for old in replaced:
        uow.emit(SkuSuperseded(delivery_key=delivery_key(merchant, job_id, old.revision, old.sku_id),
                               sku_id=old.sku_id, page=page, revision=old.revision, superseded_by=revision))


async def _deliver(uow: UnitOfWork, file_hash: str, result: PageResult, revision: int, importing: bool,
                   links: FileLinks, category: str) -> None:
    """One sku.delivered per valid SKU of a final page whose content downstream does not hold yet, keyed
    for the importer by merchant, job and revision, with signed ``links`` to its images, and the page's
    HTTP import when ``importing``. A newer revision supersedes (sku.superseded) the SKUs it changes or
    drops; one it leaves as it was keeps its delivery and key. The SKUs delivered count towards their
    ``category``'s fill rates."""
    job_id, merchant = uow.envelope.job_id, uow.envelope.merchant_id
    linked = linked_images(result)
    valid = [sku for sku in result.skus if sku.validity == "valid"]
    contents = {sku.sku_id: content_key(sku, linked.get(sku.sku_id, [])) for sku in valid}
    live = await live_deliveries(uow.conn, job_id, result.page)
    kept = [sku_id for sku_id, key in contents.items() if sku_id in live and live[sku_id].content_key == key]
    await _supersede(uow, result.page, revision, kept)
    changed = {sku_id: key for sku_id, key in contents.items() if sku_id not in kept}
    delivered = set(await deliver_skus(uow.conn, job_id, result.page, revision, changed))
    fresh = [sku for sku in valid if sku.sku_id in delivered]
    for sku in fresh:
        images = linked.get(sku.sku_id, [])
        uow.emit(SkuDelivered(delivery_key=delivery_key(merchant, job_id, revision, sku.sku_id),
                              revision=revision, page=result.page, file_hash=file_hash, sku=sku,
                              images=images, image_links=[links.image(image.image_id, image.source_uri)
                                                          for image in images if image.source_uri]))
    once_committed(count_delivered, category, fresh)
    if importing and valid:
        await enqueue(uow.conn, job_id, merchant, result.page, revision, len(valid))


def subscriptions(ctx: ServiceContext) -> Subscriptions:
    importing = ImportSettings().enabled
    file_links = FileLinkSettings()
    book = ProfileBook(profiles)

    async def category_of(uow: UnitOfWork, config_version: str) -> str:
        """The category of the profile the job is frozen to; "unknown" for a version whose profile.published
        has not arrived yet: a metric's label never holds up a delivery."""
        try:
            return (await book.get(uow.conn, config_version, wait=0)).category
        except UnknownProfile:
            return UNKNOWN_LABEL

    async def write_job_result(job: sa.Row, status: str, pages: list[PageResult]) -> tuple[ResultDocument, str]:
        """result.json of ``pages`` as the job's result with ``status``, its images exported beside it."""
        summary = JobSummary(job_id=job.job_id, file_hash=job.file_hash or "", route=job.route,
                             status=status, total_pages=job.total_pages or 0,
                             config_version=job.config_version or "", reader_version=reader_version_of(pages))
        document = assemble(summary, pages)
        key = f"results/{job.job_id}"
        await asyncio.to_thread(write_result, document, ctx.storage.get, ctx.storage.path(SCHEME + key))
        return document, f"{SCHEME}{key}/result.json"

    async def complete_if_done(uow: UnitOfWork, job: sa.Row, revised: bool = False, retried: bool = False) -> None:
        """Write result.json and announce the job when its status changes; a newer revision of a
        finished job's page (a review, a re-read) rewrites result.json with it, whether the status
        changes or not; a failed page of a finished job read again (a retry) is announced in any case,
        since the gateway moved the job back to PROCESSING for it."""
        of_job = (page_results.c.job_id == job.job_id, page_results.c.generation == job.generation)
        # counted first: loading every page's result on every page's arrival made a job quadratic
        if not is_complete(job.total_pages, await uow.conn.scalar(
                sa.select(sa.func.count()).select_from(page_results).where(*of_job))):
            return
        rows = (await uow.conn.execute(sa.select(page_results.c.result, page_results.c.revision)
                                       .where(*of_job))).all()
        readings = [(PageResult.model_validate(row.result), row.revision) for row in rows]
        pages = [page for page, _ in readings]
        status = job_status(readings, job.route)
        if status == job.status and not (revised or retried):
            return
        if status == "FULL_IMPORTED" != job.status and not imports_settled(
                await job_import_statuses(uow.conn, job.job_id)):
            return  # INV-04: announced when the last page's import settles (on_page_imported)
        document, result_uri = await write_job_result(job, status, pages)
        failed = [p.page for p in pages if p.status in FAILED_PAGE_STATUSES]
        sku_count = valid_sku_count(document)
        await uow.conn.execute(jobs.update().where(jobs.c.job_id == job.job_id).values(
            status=status, result_uri=result_uri, sku_count=sku_count, completed_at=sa.func.now()))
        if status != job.status:
            await uow.transition("job", job.job_id, job.status, status, detail={"failed_pages": failed})
        elif not retried:
            return
        uow.emit(JobCompleted(status=status, result_uri=result_uri, sku_count=sku_count,
                              total_pages=job.total_pages, failed_pages=failed, generation=job.generation))

    async def record_result(uow: UnitOfWork, work: PageBound | PageReviewed) -> None:
        job = await _job_of(uow, work.generation, file_hash=work.file_hash, route=work.route,
                            config_version=work.config_version, total_pages=work.total_pages)
        if job is None:
            return  # nothing of a cancelled job goes downstream, nor a reading a reprocess replaced
        reviewed = isinstance(work, PageReviewed)
        revision = work.revision if reviewed else machine_revision(work.generation, work.reading)

        def replaces(stored: sa.Row) -> bool:
            """What outranks the stored result replaces it (a reprocess's reading, a re-read after a
            correction, a newer review; a re-read never a review), and any reading a failed page (a
            retry, a DLQ replay); an outranked one is counted as refused (INV-07)."""
            if outranks(revision, stored.revision) or (not reviewed and stored.status in FAILED_PAGE_STATUSES):
                return True
            once_committed(count_outranked, revision, stored.revision)
            return False

        if not await _put_result(uow, work.page, work.result, revision, work.generation, replaces):
            return  # an older reading or review arriving late, or a re-read of a reviewed page
        delivered = is_final(work.result, revision, work.route)
        once_committed(count_page, delivered, reviewed)
        if delivered:
            with stage("deliver", revision=revision, skus=len(work.result.skus)):
                await _deliver(uow, work.file_hash, work.result, revision, importing,
                               file_links.links(ctx.settings.jwt_secret), await category_of(uow, work.config_version))
        elif work.reading > 0 and not reviewed:
            # a re-read sent back to a person (its correction reverted, or doubted): what the page delivered
            # is no longer its reading, so downstream is told; the person's review delivers the page again
            await _supersede(uow, work.page, revision, [])
        newer = reviewed or work.reading > 0  # a review or a re-read: not a retry's reading
        await complete_if_done(uow, job, revised=newer, retried=not newer and job.result_uri is not None)

    async def on_page_bound(envelope: EventEnvelope[PageBound], uow: UnitOfWork) -> None:
        await record_result(uow, envelope.payload)

    async def on_page_reviewed(envelope: EventEnvelope[PageReviewed], uow: UnitOfWork) -> None:
        await record_result(uow, envelope.payload)

    async def on_page_failed(envelope: EventEnvelope[PageFailed], uow: UnitOfWork) -> None:
        failure = envelope.payload
        job = await _job_of(uow, failure.generation, total_pages=failure.total_pages)
        if job is None:
            return
        # a page read before only by an earlier generation is replaced; a reading of this one is kept
        await _put_result(uow, failure.page, failed_page(failure.page), machine_revision(failure.generation),
                          failure.generation, lambda stored: stored.generation < failure.generation, failure.error)
        await uow.transition("page", f"{job.job_id}/{failure.page}", None, "DEAD_LETTER", failure.error)
        await complete_if_done(uow, job, retried=job.result_uri is not None)  # announced again after a retry

    async def on_page_imported(envelope: EventEnvelope[PageImported], uow: UnitOfWork) -> None:
        job = await _lock_job(uow)
        if job.status != CANCELLED:
            await complete_if_done(uow, job)

    async def on_job_cancelled(envelope: EventEnvelope[JobCancelled], uow: UnitOfWork) -> None:
        """Stop the job's delivery. Page events lock the same job row, so once this commits none of
        them delivers; the confirmation goes out after every delivery made before it, with the result
        of what was delivered (marked CANCELLED), which replaces any result written before."""
        job = await _lock_job(uow)
        if job.status == CANCELLED:
            return
        await stop_job(uow.conn, job.job_id)
        await uow.transition("job", job.job_id, job.status, CANCELLED, envelope.payload.reason,
                             detail={"trigger": "cancel", "by": envelope.payload.cancelled_by})
        delivered = {(row.page, row.sku_id) for row in await uow.conn.execute(sa.select(
            deliveries.c.page, deliveries.c.sku_id).where(deliveries.c.job_id == job.job_id,
                                                          deliveries.c.status != SUPERSEDED))}
        readings = (await uow.conn.execute(sa.select(page_results.c.result).where(
            page_results.c.job_id == job.job_id, page_results.c.generation == job.generation))).scalars()
        pages = delivered_part([PageResult.model_validate(result) for result in readings], delivered)
        _, result_uri = await write_job_result(job, CANCELLED, pages)
        await uow.conn.execute(jobs.update().where(jobs.c.job_id == job.job_id).values(
            status=CANCELLED, result_uri=result_uri, sku_count=len(delivered)))
        uow.emit(JobCancelConfirmed(delivered_skus=len(delivered), result_uri=result_uri))

    return [(PAGE_BOUND, on_page_bound), (PAGE_REVIEWED, on_page_reviewed), (PAGE_FAILED, on_page_failed),
            (PAGE_IMPORTED, on_page_imported), (JOB_CANCELLED, on_job_cancelled), book.subscription()]


def periodic(ctx: ServiceContext) -> list[Periodic]:
    settings = ImportSettings()
    return Importer(ctx, settings).periodic() if settings.enabled else []


definition = ServiceDefinition(
    name="output", default_port=8007, metadata=metadata, tables=platform,
    versions_dir=Path(__file__).parent / "migrations", subscriptions=subscriptions, periodic=periodic,
)
