"""Binder service wiring: page.extracted → page.bound."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_binder.domain.page import bind_page
from skuflow_binder.tables import bindings, metadata, platform
from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import PageBound, PageExtracted
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.topics import PAGE_EXTRACTED
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.runtime import ServiceContext, ServiceDefinition, Subscriptions


def subscriptions(ctx: ServiceContext) -> Subscriptions:
    async def on_page_extracted(envelope: EventEnvelope[PageExtracted], uow: UnitOfWork) -> None:
        extracted = envelope.payload
        page = ParsedPage.model_validate_json(ctx.storage.get(extracted.ir_uri))
        result = bind_page(page, extracted.classification, extracted.skus, extracted.extraction_method)
        for binding in result.bindings:
            await uow.conn.execute(pg_insert(bindings).values(
                job_id=envelope.job_id, sku_id=binding.sku_id, page=extracted.page,
                image_id=binding.image_id, confidence=binding.confidence,
                is_ambiguous=binding.is_ambiguous, method=binding.method,
                candidates=[c.model_dump() for c in binding.candidates],
            ).on_conflict_do_nothing())
        await uow.emit(extracted.advance(PageBound, result=result))

    return [(PAGE_EXTRACTED, on_page_extracted)]


definition = ServiceDefinition(
    name="binder", default_port=8005, metadata=metadata, tables=platform,
    versions_dir=Path(__file__).parent / "migrations", subscriptions=subscriptions,
)
