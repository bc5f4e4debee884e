"""Parser service wiring.

job.routed → the document is opened once (unreadable → job.failed) and one page.parse-requested
per page is published, keyed by job and page so pages spread over partitions and replicas;
page.parse-requested → that page is parsed in a worker process and page.parsed (keyed by job) follows;
job.cancelled → the job's pages not yet parsed are skipped.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import JobCancelled, JobFailed, JobRouted, PageParsed, PageParseRequested
from skuflow_contracts.topics import JOB_CANCELLED, JOB_ROUTED, PAGE_PARSE_REQUESTED
from skuflow_parser.domain.security import SecurityLimits
from skuflow_parser.pipeline import StorePage
from skuflow_parser.settings import ParserSettings
from skuflow_parser.tables import cancelled_jobs, metadata, parsed_pages, platform
from skuflow_parser.workers import PagePool
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.metrics import PAGES_PROCESSED, PHASE_SECONDS, once_committed
from skuflow_platform.runtime import ServiceContext, ServiceDefinition, Subscriptions
from skuflow_platform.tracing import attributes, stage


def subscriptions(ctx: ServiceContext) -> Subscriptions:
    settings = ParserSettings()
    pool = PagePool(workers=settings.parser_workers, max_tasks_per_child=settings.parser_max_tasks_per_child,
                    page_budget_seconds=settings.parser_page_budget_seconds, config=settings.parser_config(),
                    document_budget_seconds=settings.parser_document_budget_seconds)
    ctx.on_shutdown.append(pool.close)
    limits = SecurityLimits(max_pages=settings.max_pages, max_objects=settings.max_pdf_objects)

    async def cancelled(uow: UnitOfWork) -> bool:
        return (await uow.conn.execute(sa.select(cancelled_jobs.c.job_id).where(
            cancelled_jobs.c.job_id == uow.envelope.job_id))).first() is not None

    async def on_job_routed(envelope: EventEnvelope[JobRouted], uow: UnitOfWork) -> None:
        routed = envelope.payload
        if await cancelled(uow):
            return
        checked = await pool.check(str(ctx.storage.path(routed.file_uri)), limits)
        if checked.reason is not None:
            uow.emit(JobFailed(stage="parser", reason=checked.reason, message=checked.message))
            await uow.transition("job", envelope.job_id, "EVALUATED", "REJECTED", checked.reason)
            return
        total = checked.page_count
        reviews = routed.evaluation.review_pages if routed.evaluation else {}
        for page in range(1, total + 1):
            uow.emit(PageParseRequested(page=page, total_pages=total, file_uri=routed.file_uri,
                                        file_hash=routed.file_hash, route=routed.route,
                                        config_version=routed.config_version,
                                        document_warnings=list(checked.warnings),
                                        evaluation_review=reviews.get(page)),
                     key=f"{envelope.job_id}/{page}")

    async def on_parse_requested(envelope: EventEnvelope[PageParseRequested], uow: UnitOfWork) -> None:
        request = envelope.payload
        if await cancelled(uow):
            await uow.transition("page", f"{envelope.job_id}/{request.page}", "PENDING", "SKIPPED", "job cancelled")
            return
        with stage("parse page") as span:  # in a worker process, which stores its images and IR too
            with PHASE_SECONDS.labels("parse").time():
                stored = await pool.parse(str(ctx.storage.path(request.file_uri)), request.page - 1,
                                          request.file_hash, StorePage(envelope.job_id, ctx.storage))
            page = stored.page
            span.set_attributes(attributes(parser_backend=page.parser_backend, page_status=page.status,
                                           failure_reason=page.failure_reason, images=len(page.images)))
        await uow.conn.execute(pg_insert(parsed_pages).values(
            job_id=envelope.job_id, page=page.page, ir_uri=stored.ir_uri, ir_hash=stored.ir_hash,
            parser_backend=page.parser_backend, text_coverage=page.text_coverage, image_count=len(page.images),
        ).on_conflict_do_nothing())
        await uow.transition("page", f"{envelope.job_id}/{page.page}", "PENDING",
                             "AI_QUEUED" if page.status == "ok" else "AI_FAILED", page.failure_reason)
        uow.emit(PageParsed(page=page.page, total_pages=request.total_pages, file_hash=request.file_hash,
                            route=request.route, config_version=request.config_version,
                            ir_uri=stored.ir_uri, parser_backend=page.parser_backend,
                            document_warnings=request.document_warnings,
                            evaluation_review=request.evaluation_review, generation=request.generation,
                            parsed_at=datetime.now(UTC)))
        once_committed(PAGES_PROCESSED.labels("parser").inc)

    async def on_job_cancelled(envelope: EventEnvelope[JobCancelled], uow: UnitOfWork) -> None:
        await uow.conn.execute(pg_insert(cancelled_jobs).values(job_id=envelope.job_id).on_conflict_do_nothing())

    return [(JOB_ROUTED, on_job_routed), (PAGE_PARSE_REQUESTED, on_parse_requested),
            (JOB_CANCELLED, on_job_cancelled)]


definition = ServiceDefinition(
    name="parser", default_port=8002, metadata=metadata, tables=platform,
    versions_dir=Path(__file__).parent / "migrations", subscriptions=subscriptions,
)
