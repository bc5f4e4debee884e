"""Binder service wiring: page.extracted → page.bound, remembering the job's logos and each image's
state in its schema.

A page may be read again within its generation (a person corrected a page of its layout: issue 42):
the later reading is bound and replaces the page's images and bindings; a reading older than the one
bound already (a late replay) binds nothing."""

from __future__ import annotations

import time
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_binder.domain.dedup import SeenImages
from skuflow_binder.domain.images import image_path, image_row
from skuflow_binder.domain.page import bind_page
from skuflow_binder.llm import settle_with_model
from skuflow_binder.metrics import count_bound, count_duplicates
from skuflow_binder.tables import bindings, bound_readings, images, metadata, platform, profiles, seen_images
from skuflow_binder.trace import binding_trace
from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import PageBound, PageExtracted
from skuflow_contracts.ir import ImageRegion, ParsedPage
from skuflow_contracts.results import ImageRecord
from skuflow_contracts.topics import PAGE_EXTRACTED
from skuflow_contracts.traces import Stopwatch
from skuflow_llm import optional_llm_service
from skuflow_llm.pages import PageCall
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.metrics import once_committed
from skuflow_platform.profiles import ProfileBook
from skuflow_platform.runtime import ServiceContext, ServiceDefinition, Subscriptions
from skuflow_platform.tracing import attributes, stage


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


async def _newest(uow: UnitOfWork, extracted: PageExtracted) -> bool:
    """Whether this is the page's newest reading so far (its generation, then its reading), now recorded."""
    row = pg_insert(bound_readings).values(job_id=uow.envelope.job_id, page=extracted.page,
                                           generation=extracted.generation, reading=extracted.reading)
    newer = sa.tuple_(row.excluded.generation, row.excluded.reading) >= sa.tuple_(
        bound_readings.c.generation, bound_readings.c.reading)
    recorded = await uow.conn.execute(row.on_conflict_do_update(
        index_elements=[bound_readings.c.job_id, bound_readings.c.page],
        set_={"generation": row.excluded.generation, "reading": row.excluded.reading}, where=newer,
    ).returning(bound_readings.c.page))
    return recorded.first() is not None


def subscriptions(ctx: ServiceContext) -> Subscriptions:
    llm = optional_llm_service()
    book = ProfileBook(profiles)

    async def on_page_extracted(envelope: EventEnvelope[PageExtracted], uow: UnitOfWork) -> None:
        extracted, clock = envelope.payload, Stopwatch()
        if not await _newest(uow, extracted):
            return
        started = time.perf_counter()
        page = ParsedPage.model_validate_json(ctx.storage.get(extracted.ir_uri))
        seen = await _seen(uow)
        before = SeenImages(set(seen.hashes), set(seen.perceptual))
        known = before.hashes
        profile = await book.get(uow.conn, extracted.config_version)
        with stage("bind") as span:
            result = bind_page(page, extracted.classification, extracted.skus, extracted.extraction_method, profile,
                               seen, extracted.fallback_reason,
                               [*extracted.review_reasons, *filter(None, [extracted.evaluation_review])])
            result = result.model_copy(update={"reader_version": extracted.reader_version,
                                               "reading_confidence": extracted.reading_confidence})
            call = PageCall.of(page, job_id=envelope.job_id, merchant_id=envelope.merchant_id,
                               read=ctx.storage.get, calls_used=extracted.llm_calls)
            result, spent = await settle_with_model(llm, result, call)
            span.set_attributes(attributes(
                bindings=len(result.bindings), ambiguous=sum(b.is_ambiguous for b in result.bindings),
                images=len(result.images), page_status=result.status, needs_review=result.needs_review))
        once_committed(count_duplicates, result.images)
        learned = {image.content_hash: image.perceptual_hash for image in page.images
                   if image.content_hash in seen.hashes - known}
        for content_hash, perceptual_hash in learned.items():
            await uow.conn.execute(pg_insert(seen_images).values(
                job_id=envelope.job_id, content_hash=content_hash,
                perceptual_hash=perceptual_hash).on_conflict_do_nothing())
        await record_images(uow, extracted.page, result.images, page.images)
        await uow.conn.execute(bindings.delete().where(bindings.c.job_id == envelope.job_id,
                                                       bindings.c.page == extracted.page))  # the latest reading's
        if result.bindings:
            await uow.conn.execute(bindings.insert(), [
                {"job_id": envelope.job_id, "sku_id": binding.sku_id, "page": extracted.page,
                 "image_id": binding.image_id, "confidence": binding.confidence,
                 "is_ambiguous": binding.is_ambiguous, "method": binding.method,
                 "candidates": [c.model_dump() for c in binding.candidates]} for binding in result.bindings])
        trace = binding_trace(envelope.job_id, extracted, before, result, spent, clock.timing(envelope.occurred_at))
        ctx.storage.put(trace.key, trace.to_bytes())
        sent = uow.emit(extracted.advance(PageBound, result=result, **extracted.spent(spent.calls,
                                                                                    spent.cost_usd)))
        once_committed(count_bound, sent, time.perf_counter() - started)

    return [(PAGE_EXTRACTED, on_page_extracted), book.subscription()]


definition = ServiceDefinition(
    name="binder", default_port=8005, metadata=metadata, tables=platform,
    versions_dir=Path(__file__).parent / "migrations", subscriptions=subscriptions,
)
