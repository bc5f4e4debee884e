"""Extractor service wiring: page.classified → page.extracted."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import PageClassified, PageExtracted
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.topics import PAGE_CLASSIFIED
from skuflow_extractor.domain.extraction import extract_page
from skuflow_extractor.tables import metadata, platform, skus
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.runtime import ServiceContext, ServiceDefinition, Subscriptions


def subscriptions(ctx: ServiceContext) -> Subscriptions:
    async def on_page_classified(envelope: EventEnvelope[PageClassified], uow: UnitOfWork) -> None:
        classified = envelope.payload
        page = ParsedPage.model_validate_json(ctx.storage.get(classified.ir_uri))
        extraction = extract_page(page, classified.classification, classified.file_hash)
        for sku in extraction.skus:
            await uow.conn.execute(pg_insert(skus).values(
                sku_id=sku.sku_id, job_id=envelope.job_id, page=classified.page, validity=sku.validity,
                extraction_method=extraction.method, record=sku.model_dump(mode="json"),
            ).on_conflict_do_nothing())
        await uow.emit(classified.advance(PageExtracted, classification=classified.classification,
                                          extraction_method=extraction.method, skus=extraction.skus))

    return [(PAGE_CLASSIFIED, on_page_classified)]


definition = ServiceDefinition(
    name="extractor", default_port=8004, metadata=metadata, tables=platform,
    versions_dir=Path(__file__).parent / "migrations", subscriptions=subscriptions,
)
