"""Parser service wiring: job.routed → page.parsed (one per page), or job.failed."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import JobFailed, JobRouted, PageParsed
from skuflow_contracts.topics import JOB_ROUTED
from skuflow_parser.domain.document import UnreadableDocument
from skuflow_parser.pipeline import parse_and_store
from skuflow_parser.tables import metadata, parsed_pages, platform
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.runtime import ServiceContext, ServiceDefinition, Subscriptions


def subscriptions(ctx: ServiceContext) -> Subscriptions:
    async def on_job_routed(envelope: EventEnvelope[JobRouted], uow: UnitOfWork) -> None:
        routed = envelope.payload
        pdf = ctx.storage.get(routed.file_uri)
        try:
            pages = await asyncio.to_thread(parse_and_store, pdf, job_id=envelope.job_id,
                                            file_hash=routed.file_hash, storage=ctx.storage)
        except UnreadableDocument as exc:
            await uow.emit(JobFailed(stage="parser", reason=exc.reason, message=exc.message))
            await uow.transition("job", envelope.job_id, "EVALUATED", "REJECTED", exc.reason)
            return
        for stored in pages:
            page = stored.page
            await uow.conn.execute(pg_insert(parsed_pages).values(
                job_id=envelope.job_id, page=page.page, ir_uri=stored.ir_uri, ir_hash=stored.ir_hash,
                parser_backend=page.parser_backend, text_coverage=page.text_coverage,
                image_count=len(page.images),
            ).on_conflict_do_nothing())
            await uow.emit(PageParsed(
                page=page.page, total_pages=len(pages), file_hash=routed.file_hash, route=routed.route,
                config_version=routed.config_version, ir_uri=stored.ir_uri,
                parser_backend=page.parser_backend,
            ))

    return [(JOB_ROUTED, on_job_routed)]


definition = ServiceDefinition(
    name="parser", default_port=8002, metadata=metadata, tables=platform,
    versions_dir=Path(__file__).parent / "migrations", subscriptions=subscriptions,
)
