"""Binder service wiring: page.extracted → page.bound, remembering the job's logos and each image's
state in its schema."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_binder.domain.dedup import SeenImages
from skuflow_binder.domain.images import image_path, image_row
from skuflow_binder.domain.page import bind_page
from skuflow_binder.llm import settle_with_model
from skuflow_binder.metrics import count_duplicates
from skuflow_binder.tables import bindings, images, metadata, platform, profiles, seen_images
from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import PageBound, PageExtracted
from skuflow_contracts.ir import ImageRegion, ParsedPage
from skuflow_contracts.results import ImageRecord
from skuflow_contracts.topics import PAGE_EXTRACTED
from skuflow_llm import optional_llm_service
from skuflow_llm.pages import PageCall
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.profiles import ProfileBook
from skuflow_platform.runtime import ServiceContext, ServiceDefinition, Subscriptions


async def _seen(uow: UnitOfWork) -> SeenImages:
    rows = (await uow.conn.execute(sa.select(seen_images.c.content_hash, seen_images.c.perceptual_hash)
                                   .where(seen_images.c.job_id == uow.envelope.job_id))).all()
    return SeenImages({r.content_hash for r in rows}, {r.perceptual_hash for r in rows if r.perceptual_hash})


async def record_images(uow: UnitOfWork, page: int, records: list[ImageRecord], regions: list[ImageRegion]) -> None:
    """Each image of the page with its state and the moves that led there; a page read again (a
    retry) replaces its images."""
    job_id = uow.envelope.job_id
    await uow.conn.execute(images.delete().where(images.c.job_id == job_id, images.c.page == page))
    if not records:
        return
    measured = {region.image_id: region for region in regions}
    await uow.conn.execute(pg_insert(images).on_conflict_do_nothing(), [
        {"job_id": job_id, "page": page, **image_row(record, measured.get(record.image_id))} for record in records])
    await uow.transitions("image", [(f"{job_id}/{record.image_id}", before, after, {"trigger": trigger})
                                    for record in records for before, trigger, after in image_path(record)])


def subscriptions(ctx: ServiceContext) -> Subscriptions:
    llm = optional_llm_service()
    book = ProfileBook(profiles)

    async def on_page_extracted(envelope: EventEnvelope[PageExtracted], uow: UnitOfWork) -> None:
        extracted = envelope.payload
        page = ParsedPage.model_validate_json(ctx.storage.get(extracted.ir_uri))
        seen = await _seen(uow)
        known = set(seen.hashes)
        result = bind_page(page, extracted.classification, extracted.skus, extracted.extraction_method,
                           await book.get(uow.conn, extracted.config_version), seen, extracted.fallback_reason,
                           [*extracted.review_reasons, *filter(None, [extracted.evaluation_review])])
        result = result.model_copy(update={"reader_version": extracted.reader_version,
                                           "reading_confidence": extracted.reading_confidence})
        call = PageCall.of(page, job_id=envelope.job_id, merchant_id=envelope.merchant_id, read=ctx.storage.get,
                           calls_used=extracted.llm_calls)
        result, spent = await settle_with_model(llm, result, call)
        count_duplicates(result.images)
        learned = {image.content_hash: image.perceptual_hash for image in page.images
                   if image.content_hash in seen.hashes - known}
        for content_hash, perceptual_hash in learned.items():
            await uow.conn.execute(pg_insert(seen_images).values(
                job_id=envelope.job_id, content_hash=content_hash,
                perceptual_hash=perceptual_hash).on_conflict_do_nothing())
        await record_images(uow, extracted.page, result.images, page.images)
        for binding in result.bindings:
            row = pg_insert(bindings).values(
                job_id=envelope.job_id, sku_id=binding.sku_id, page=extracted.page,
                image_id=binding.image_id, confidence=binding.confidence,
                is_ambiguous=binding.is_ambiguous, method=binding.method,
                candidates=[c.model_dump() for c in binding.candidates])
            await uow.conn.execute(row.on_conflict_do_update(  # the latest reading's (a full reprocess's)
                index_elements=[bindings.c.job_id, bindings.c.sku_id],
                set_={name: row.excluded[name] for name in ("page", "image_id", "confidence", "is_ambiguous",
                                                            "method", "candidates")}))
        await uow.emit(extracted.advance(PageBound, result=result, **extracted.spent(spent.calls, spent.cost_usd)))

    return [(PAGE_EXTRACTED, on_page_extracted), book.subscription()]


definition = ServiceDefinition(
    name="binder", default_port=8005, metadata=metadata, tables=platform,
    versions_dir=Path(__file__).parent / "migrations", subscriptions=subscriptions,
)
