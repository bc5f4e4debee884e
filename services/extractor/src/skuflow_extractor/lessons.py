"""Correct one page, the rest follow (issue 42): what the extractor learns from a person's review.

A review (``page.reviewed``) is kept as a lesson of the page's layout for its merchant
(``reading.adaptation``), and the job's pages of that layout no person reviewed are read again with the
reader adapted to the lessons, each as the next reading of its generation. Pages read later, in this
job or in the merchant's later jobs with the same layout, are read with the lessons at once, and a page
type the classifier doubted on them becomes the one the person gave the newest lesson's page. A lesson
that does not fit those pages (it would leave one read to nothing) is doubted: its readings are sent
flagged for a person, a page it would read to nothing keeps its reading (flagged too), and the lesson
teaches no page read later. A revert (``page.review-reverted``) unlearns the lesson and reads again every
page read with it.

Re-reads ask no language model: a lesson is a better reading of exactly such a page, and the page's
model calls were spent on its first reading. A lesson keeps its page, the reading the person reviewed,
their products and the reader that measured it: a new reader (retrained, with other features or
candidates) learns it again the first time it is used, so a merchant's memory outlives the reader's
upgrades and the job's files (purged in time). Lessons never cross merchants. A merchant's learning and
its pages' first readings take one advisory lock (exclusive to learn, shared to read), so no page is read
with a lesson while that lesson is being learnt or unlearnt, and missed by both.
"""

from __future__ import annotations

import gzip
import logging
from dataclasses import dataclass, replace
from functools import lru_cache

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import AdaptedFrom, PageExtracted, PageReviewed, PageReviewReverted
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.results import PageClassification, SkuRecord
from skuflow_contracts.revisions import MAX_READING
from skuflow_contracts.topics import PAGE_REVIEW_REVERTED, PAGE_REVIEWED
from skuflow_contracts.traces import ExtractionTrace
from skuflow_extractor.domain.extraction import Extraction, extract_page
from skuflow_extractor.reading.adaptation import (
    Lesson,
    adapted,
    lesson,
    read_to_nothing,
    taught,
    taught_columns,
    taught_type,
    typed_as,
)
from skuflow_extractor.reading.candidates import TaughtColumn
from skuflow_extractor.reading.decisions import Reader, committed_reader
from skuflow_extractor.reading.labels import truth_keys
from skuflow_extractor.reading.pipeline import decision_inputs, read_page_staged
from skuflow_extractor.readings import extracted, header_of, inputs_of, page_inputs, publish
from skuflow_extractor.tables import lessons, page_readings
from skuflow_extractor.trace import extraction_trace
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.runtime import ServiceContext, Subscriptions

ACTIVE, DOUBTED, REVERTED = "active", "doubted", "reverted"
SKIPPED = "HUMAN_SKIPPED"  # a task ended without a person's reading: the page is theirs, but teaches nothing
LESSONS_KEPT = 8  # a reader learns from the newest lessons only: a merchant's lessons grow without end
LOCK_CLASS = 42  # the advisory locks of learning, by merchant (the two-key form: class, merchant)
log = logging.getLogger("skuflow.extractor")


@dataclass(frozen=True)
class Teacher:
    """What a page is read with: an adapted reader and the lessons it learnt from (newest first)."""

    reader: Reader | None = None  # None: the committed reader
    columns: tuple[TaughtColumn, ...] = ()  # where the lessons' keys stood: candidates on this page too
    lesson_ids: tuple[int, ...] = ()
    source: AdaptedFrom | None = None  # the newest lesson's page, named on the reading
    lessons: tuple[bytes, ...] = ()  # the lessons themselves (the page's trace carries them, to read it again)
    page_type: str | None = None  # the type the newest lesson's person gave its page: the layout's, where doubted


async def hold(conn: AsyncConnection, merchant_id: str, *, exclusive: bool = False) -> None:
    lock = sa.func.pg_advisory_xact_lock if exclusive else sa.func.pg_advisory_xact_lock_shared
    await conn.execute(sa.select(lock(LOCK_CLASS, sa.func.hashtext(merchant_id))))


@lru_cache(maxsize=16)
def adapted_to(stored: tuple[bytes, ...]) -> tuple[Reader | None, tuple[TaughtColumn, ...], str | None]:
    """The reader adapted to the lessons ``stored`` (newest first), the columns they taught and the page
    type the newest was given, once per set of lessons and process (a job's pages of one layout share
    it); (None, (), None): they teach no boundary (lessons of one kind of candidate only), the committed
    reader reads and the classifier's type stands."""
    learnt = [Lesson.from_bytes(data) for data in stored]
    reader = adapted(committed_reader(), learnt)
    return (None, (), None) if reader is committed_reader() else (reader, taught(learnt), taught_type(learnt))


async def measured(conn: AsyncConnection, job_id: str, current: PageExtracted, page: ParsedPage,
                   products: list[dict], page_type: str | None) -> Lesson:
    """A reviewed page as a lesson, measured by the committed reader's features and candidates: ``current``
    its reading the person reviewed, ``products`` the attributes of the SKUs they left, ``page_type`` the
    type they gave it."""
    page, geo, profile, previous = await inputs_of(conn, job_id, current, page)
    rules = extract_page(page, current.classification, current.file_hash, profile, header_of(previous), geo.upright)
    columns = taught_columns(geo, products)
    return lesson(decision_inputs(page, current.classification, rules, geo, columns), products, columns, page_type)


async def up_to_date(conn: AsyncConnection, row: sa.Row, version: str) -> bytes:
    """The stored lesson ``row`` as the committed reader (``version``) measures it: learnt again from the
    page it keeps, and kept so, where another reader measured it; as stored in a lesson kept before lessons
    kept their pages, which a reader with other features leaves out (``adaptation.adapted``)."""
    if row.reader_version == version or not row.relearnable:
        return bytes(row.lesson)
    t = lessons.c
    kept = (await conn.execute(sa.select(t.page_ir, t.reviewed_reading, t.products).where(
        t.lesson_id == row.lesson_id))).one()  # fetched only here: a page's IR is tens of kB
    page = ParsedPage.model_validate_json(gzip.decompress(kept.page_ir))
    again = await measured(conn, row.job_id, PageExtracted.model_validate(kept.reviewed_reading), page, kept.products,
                           Lesson.from_bytes(bytes(row.lesson)).page_type)
    data = again.to_bytes()
    await conn.execute(lessons.update().where(lessons.c.lesson_id == row.lesson_id).values(
        lesson=data, reader_version=version))
    log.info("lesson %s (job %s, page %s) learnt again by %s, was %s's", row.lesson_id, row.job_id, row.page,
             version, row.reader_version)
    return data


async def teacher_for(conn: AsyncConnection, merchant_id: str, job_id: str, layout: str | None) -> Teacher:
    """The reader for a page of ``layout``: adapted to the merchant's active lessons of that layout in
    the page's job and in its other jobs. Another job's lesson is taken only for the very same layout
    signature (the same template), not for one merely alike: half the column edges shared is enough
    within a document, and across a merchant's catalogs it lent one catalog's columns to another."""
    if layout is None or committed_reader() is None:
        return Teacher()
    t = lessons.c
    used = (await conn.execute(sa.select(t.lesson_id, t.job_id, t.page, t.task_id).where(
        t.merchant_id == merchant_id, t.status == ACTIVE, t.layout == layout).order_by(
        t.lesson_id.desc()).limit(LESSONS_KEPT))).all()
    if not used:
        return Teacher()
    stored = {row.lesson_id: row for row in (await conn.execute(sa.select(
        t.lesson_id, t.job_id, t.page, t.lesson, t.reader_version, t.page_ir.is_not(None).label("relearnable")).where(
        t.lesson_id.in_([n.lesson_id for n in used])))).all()}
    version = committed_reader().version
    learnt = tuple([await up_to_date(conn, stored[n.lesson_id], version) for n in used])
    reader, columns, page_type = adapted_to(learnt)
    if reader is None:
        return Teacher()
    newest = used[0]
    return Teacher(reader, columns, tuple(n.lesson_id for n in used),
                   AdaptedFrom(job_id=newest.job_id, page=newest.page, task_id=newest.task_id), learnt, page_type)


@dataclass(frozen=True)
class Reread:
    """A page read again: the classification it was read with, its reading, and the reading's trace."""

    classification: PageClassification
    extraction: Extraction
    trace: ExtractionTrace


def keys_of(skus: list[SkuRecord]) -> tuple[set[str], set[str]]:
    """The products' keys, as the reader decides them (its lessons are labelled by the same keys)."""
    return truth_keys(sku.attributes.model_dump() for sku in skus)


def doubt(page: int) -> str:
    return f"adaptation_doubtful:page {page}"


def subscriptions(ctx: ServiceContext) -> Subscriptions:
    async def read_again(conn: AsyncConnection, job_id: str, current: PageExtracted,
                         teacher: Teacher) -> Reread:
        page, geo, profile, previous = await page_inputs(conn, ctx.storage, job_id, current)
        header = header_of(previous)
        classification = typed_as(current.classification, teacher.page_type)
        reading, stages = read_page_staged(page, classification, current.file_hash, profile, header,
                                           teacher.reader, geo, teacher.columns)
        return Reread(classification, reading, extraction_trace(job_id, current, reading, stages, header, teacher,
                                                                reading=current.reading + 1, layout=current.layout))

    async def send_again(uow: UnitOfWork, job_id: str, current: PageExtracted, reread: Reread,
                         teacher: Teacher, doubted: str | None = None) -> None:
        """The page's new reading, flagged for a person where its lesson is ``doubted`` (the reason; the
        trace keeps what the reader decided, which a replay reads again)."""
        ctx.storage.put(reread.trace.key, reread.trace.to_bytes())
        extraction = reread.extraction if doubted is None else replace(
            reread.extraction, review_reasons=[*reread.extraction.review_reasons, doubted])
        await publish(uow, job_id, extracted(current, reread.classification, extraction,
                                             reading=current.reading + 1, adapted_from=teacher.source),
                      teacher.lesson_ids)

    async def learn(uow: UnitOfWork, reviewed: PageReviewed, current: PageExtracted) -> int | None:
        """The reviewed page as a lesson (None: this review was learnt already)."""
        ir = ctx.storage.get(current.ir_uri)
        products = [sku.attributes.model_dump(mode="json") for sku in reviewed.result.skus]
        learnt = await measured(uow.conn, uow.envelope.job_id, current, ParsedPage.model_validate_json(ir), products,
                                reviewed.result.page_type)
        return (await uow.conn.execute(pg_insert(lessons).values(
            merchant_id=uow.envelope.merchant_id, job_id=uow.envelope.job_id, page=reviewed.page,
            task_id=reviewed.task_id, revision=reviewed.revision, layout=current.layout, lesson=learnt.to_bytes(),
            status=ACTIVE, page_ir=gzip.compress(ir, mtime=0), reviewed_reading=current.model_dump(mode="json"),
            products=products, reader_version=committed_reader().version,
        ).on_conflict_do_nothing().returning(lessons.c.lesson_id))).scalar_one_or_none()

    async def follow(uow: UnitOfWork, corrected: PageExtracted, lesson_id: int) -> None:
        """Read the job's other pages of the corrected page's layout again; where the correction does not fit
        them (one read to nothing), each is flagged, and a page it reads to nothing keeps its reading."""
        job_id, r = uow.envelope.job_id, page_readings.c
        rows = (await uow.conn.execute(sa.select(r.event, r.lesson_ids).where(
            r.job_id == job_id, r.generation == corrected.generation, r.layout == corrected.layout, ~r.reviewed,
            r.reading < MAX_READING).order_by(r.page).with_for_update())).all()
        teacher = await teacher_for(uow.conn, uow.envelope.merchant_id, job_id, corrected.layout)
        if not rows or teacher.reader is None:
            return
        currents = [PageExtracted.model_validate(row.event) for row in rows]
        readings = [await read_again(uow.conn, job_id, current, teacher) for current in currents]
        lost = read_to_nothing([len(c.skus) for c in currents], [len(n.extraction.skus) for n in readings])
        doubted = doubt(corrected.page) if any(lost) else None
        if doubted:  # kept, and taught no page read later
            await uow.conn.execute(lessons.update().where(lessons.c.lesson_id == lesson_id).values(status=DOUBTED))
        for current, row, reading, kept in zip(currents, rows, readings, lost, strict=True):
            if not kept:
                await send_again(uow, job_id, current, reading, teacher, doubted)
                continue
            flagged = current.model_copy(update={"reading": current.reading + 1,  # its SKUs, for a person to look at
                                                 "review_reasons": [*current.review_reasons, doubted]})
            await publish(uow, job_id, flagged, row.lesson_ids or ())

    async def on_page_reviewed(envelope: EventEnvelope[PageReviewed], uow: UnitOfWork) -> None:
        reviewed, r = envelope.payload, page_readings.c
        await hold(uow.conn, envelope.merchant_id, exclusive=True)
        row = (await uow.conn.execute(page_readings.update().where(
            r.job_id == envelope.job_id, r.page == reviewed.page, r.generation == reviewed.generation,
        ).values(reviewed=True).returning(r.event))).scalar_one_or_none()
        if row is None or reviewed.result.status == SKIPPED:
            return  # a review of a reading a reprocess replaced, or a task skipped
        current = PageExtracted.model_validate(row)
        if current.layout is None:
            return  # a page without columns shares its layout with no page
        if keys_of(reviewed.result.skus) == keys_of(current.skus):
            return  # approved as read (or only prices, images fixed): nothing the reader decided was wrong
        lesson_id = await learn(uow, reviewed, current)
        if lesson_id is not None:
            await follow(uow, current, lesson_id)

    async def on_page_review_reverted(envelope: EventEnvelope[PageReviewReverted], uow: UnitOfWork) -> None:
        """Unlearn the reverted review's lesson; read again, with the lessons left, every page read with it."""
        await hold(uow.conn, envelope.merchant_id, exclusive=True)
        undone = (await uow.conn.execute(lessons.update().where(
            lessons.c.merchant_id == envelope.merchant_id, lessons.c.task_id == envelope.payload.task_id,
            lessons.c.status != REVERTED,
        ).values(status=REVERTED).returning(lessons.c.lesson_id))).scalars().all()
        r = page_readings.c
        rows = (await uow.conn.execute(sa.select(r.job_id, r.event).where(
            r.merchant_id == envelope.merchant_id, r.lesson_ids.overlap(undone), ~r.reviewed,
            r.reading < MAX_READING).order_by(r.job_id, r.page).with_for_update())).all() if undone else []
        for job_id, event in rows:
            current = PageExtracted.model_validate(event)
            teacher = await teacher_for(uow.conn, envelope.merchant_id, job_id, current.layout)
            await send_again(uow, job_id, current, await read_again(uow.conn, job_id, current, teacher), teacher)

    return [(PAGE_REVIEWED, on_page_reviewed), (PAGE_REVIEW_REVERTED, on_page_review_reverted)]

