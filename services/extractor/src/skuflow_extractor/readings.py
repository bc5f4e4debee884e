"""A page's reading as the extractor keeps it: what the page is read with (its IR, its profile, the
header the page before ended with) and what its last reading left (its SKUs and the page.extracted
sent), so that a page can be read again when a person corrects a page of its layout (``lessons``)."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_contracts.events import PageClassified, PageExtracted, PageWork
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.profile import ThresholdProfile
from skuflow_contracts.results import PageClassification
from skuflow_extractor.domain.extraction import Extraction, needs_previous_page
from skuflow_extractor.domain.tables import TableHeader
from skuflow_extractor.reading.geometry import Geometry, geometry
from skuflow_extractor.tables import page_readings, page_tables, profiles, skus
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.profiles import ProfileBook
from skuflow_platform.storage import LocalStorage
from skuflow_platform.tracing import stage

UNKNOWN = object()  # the page before is not read yet
BOOK = ProfileBook(profiles)  # the threshold profiles; a version never changes, so one cache per process


async def previous_header(conn: AsyncConnection, job_id: str, page: int,
                          generation: int) -> TableHeader | object | None:
    """The table header the page before ended with, as read in this generation (UNKNOWN: not yet)."""
    row = (await conn.execute(sa.select(page_tables.c.header, page_tables.c.generation).where(
        (page_tables.c.job_id == job_id) & (page_tables.c.page == page - 1)))).first()
    if row is None or row.generation < generation:
        return UNKNOWN
    return TableHeader.from_json(row.header) if row.header else None


async def page_inputs(conn: AsyncConnection, storage: LocalStorage, job_id: str, work: PageClassified | PageExtracted
                      ) -> tuple[ParsedPage, Geometry, ThresholdProfile, TableHeader | object | None]:
    """The page, its geometry, its profile and, where it may continue the page before's table, that
    page's header."""
    return await inputs_of(conn, job_id, work, ParsedPage.model_validate_json(storage.get(work.ir_uri)))


async def inputs_of(conn: AsyncConnection, job_id: str, work: PageClassified | PageExtracted, page: ParsedPage
                    ) -> tuple[ParsedPage, Geometry, ThresholdProfile, TableHeader | object | None]:
    """``page_inputs`` of a page at hand."""
    profile = await BOOK.get(conn, work.config_version)
    with stage("geometry", page=page.page):
        geo = geometry(page)
    previous = None
    if needs_previous_page(page, work.classification, profile, geo.upright.lines):
        previous = await previous_header(conn, job_id, page.page, work.generation)
    return page, geo, profile, previous


def header_of(previous: TableHeader | object | None) -> TableHeader | None:
    return previous if isinstance(previous, TableHeader) else None


async def known_layouts(conn: AsyncConnection, job_id: str, generation: int) -> list[str]:
    """The job's layouts in the order its pages were first read (the first alike names a page's)."""
    r = page_readings.c
    return list((await conn.execute(sa.select(r.layout).where(
        r.job_id == job_id, r.generation == generation, r.layout.is_not(None)).group_by(r.layout).order_by(
        sa.func.min(r.first_read_at), sa.func.min(r.page)))).scalars())


def extracted(work: PageWork, classification: PageClassification, extraction: Extraction,
              **fields: object) -> PageExtracted:
    """The page.extracted of ``extraction``; ``fields`` update the page's facts (reading, layout, …)."""
    return work.advance(
        PageExtracted, classification=classification, extraction_method=extraction.method,
        fallback_reason=extraction.fallback_reason, skus=extraction.skus, review_reasons=extraction.review_reasons,
        reader_version=extraction.reader_version, reading_confidence=extraction.confidence, **fields)


async def publish(uow: UnitOfWork, job_id: str, event: PageExtracted, lesson_ids: Sequence[int] = ()) -> None:
    """Keep the page's SKUs and its reading as sent (a new reading replaces the page's SKUs whole),
    and send it. ``job_id``: the page's job (a revert reads again pages of the merchant's other jobs)."""
    await uow.conn.execute(skus.delete().where(skus.c.job_id == job_id, skus.c.page == event.page))
    if event.skus:
        await uow.conn.execute(skus.insert(), [
            {"sku_id": sku.sku_id, "job_id": job_id, "page": event.page, "validity": sku.validity,
             "extraction_method": event.extraction_method, "record": sku.model_dump(mode="json")}
            for sku in event.skus])
    row = pg_insert(page_readings).values(
        job_id=job_id, page=event.page, merchant_id=uow.envelope.merchant_id, generation=event.generation,
        event=event.model_dump(mode="json"), layout=event.layout, reading=event.reading,
        reading_confidence=event.reading_confidence, reviewed=False, lesson_ids=list(lesson_ids))
    await uow.conn.execute(row.on_conflict_do_update(  # a later reading, or a reprocess's first
        index_elements=[page_readings.c.job_id, page_readings.c.page],
        set_={**{name: row.excluded[name] for name in ("generation", "event", "layout", "reading",
                                                       "reading_confidence", "reviewed", "lesson_ids")},
              "first_read_at": sa.case((page_readings.c.generation < row.excluded.generation, sa.func.now()),
                                       else_=page_readings.c.first_read_at)}))
    uow.emit(event, job_id=job_id)
