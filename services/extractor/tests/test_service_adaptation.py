"""Correct one page, the rest follow (issue 42), in the extractor service on the real Postgres: handlers
driven through `run_handler`, the outbox rows are the output (as in test_service_cross_page.py).

The pages are a born-digital price list whose products are known by their item number alone, in a column
headed 序号 (serial number, which the committed reader takes for a row count): the committed reader takes
the repeated name (玻璃杯) for the products (the pipeline flags such a page later, for the name every row
repeats); corrected once, the reader takes the item numbers of the other pages, and is surer of them than
it was of the names.
"""

import uuid
from dataclasses import replace

import numpy as np
import sqlalchemy as sa
from extractor_pages import COLUMNS, HASH, classification, page, table

from skuflow_contracts.codec import decode, envelope_for
from skuflow_contracts.events import AdaptedFrom, PageClassified, PageReviewed, PageReviewReverted
from skuflow_contracts.results import PageResult
from skuflow_contracts.revisions import MAX_READING
from skuflow_contracts.topics import PAGE_CLASSIFIED, PAGE_EXTRACTED, PAGE_REVIEW_REVERTED, PAGE_REVIEWED
from skuflow_contracts.traces import ExtractionTrace, trace_key
from skuflow_extractor.reading.adaptation import Lesson
from skuflow_extractor.reading.decisions import committed_reader
from skuflow_extractor.service import definition
from skuflow_extractor.tables import lessons, page_readings, skus
from skuflow_platform.consumer import run_handler
from skuflow_platform.storage import SCHEME

OUTBOX = definition.tables.outbox
ROWS = 8
HEADER = ["序号", "品名", "规格", "价格"]


def item_number(page_number, row):
    return f"{page_number * 100 + row}"


OTHER_COLUMNS = (30, 250, 380, 500)  # a layout not alike the price list's
OTHER_PAGE = 5  # set in it


def price_list(number, coded=True, scanned=False):
    """``coded``: the item numbers printed (otherwise a dash stands in their column); ``scanned``: read by OCR."""
    rows = [[item_number(number, n) if coded else "—", "玻璃杯", f"{n + 1}00ml", f"{n + 1}.50"] for n in range(ROWS)]
    xs = OTHER_COLUMNS if number == OTHER_PAGE else COLUMNS
    parsed = page(*table(0, 80, [HEADER, *rows], xs=xs), number=number)
    return parsed.model_copy(update={"parser_backend": "ocr"}) if scanned else parsed


def merchant():
    return f"m-{uuid.uuid4().hex[:8]}"  # lessons are kept per merchant: each test learns alone


class Job:
    def __init__(self, service, merchant_id):
        self.service, self.merchant_id, self.id = service, merchant_id, f"adapt-{uuid.uuid4().hex[:8]}"

    async def deliver(self, topic, payload):
        _, envelope = envelope_for(payload, job_id=self.id, merchant_id=self.merchant_id, producer="test")
        async with self.service.db.transaction() as conn:
            await run_handler(self.service.handlers[topic.name], envelope, conn, definition.tables, "extractor")

    async def classified(self, *numbers, coded=True, kind=None, scanned=False):
        for number in numbers:
            uri = self.service.storage.put(f"{self.id}/p{number}.json",
                                           price_list(number, coded, scanned).model_dump_json().encode())
            await self.deliver(PAGE_CLASSIFIED, PageClassified(
                page=number, total_pages=5, file_hash=HASH, route="AUTO", config_version="v1", ir_uri=uri,
                classification=kind or classification("A")))

    async def reviewed(self, number, products, status="HUMAN_COMPLETED", revision=2):
        """A person's review of the page's latest reading; ``products``: (model, name) of each SKU left."""
        read = (await self.readings())[number]
        template = read.skus[0]
        kept = [template.model_copy(update={"sku_id": f"{template.sku_id[:-3]}{n:03d}", "attributes":
                                            template.attributes.model_copy(update={"model": m, "product_name": p})})
                for n, (m, p) in enumerate(products, start=1)]
        result = PageResult(page=number, status=status, page_type="A", layout="L1", needs_review=False,
                            parser_backend="pymupdf", extraction_method=read.extraction_method, skus=kept)
        task_id = f"task-{self.id}-{number}"
        await self.deliver(PAGE_REVIEWED, read.advance(PageReviewed, task_id=task_id, result=result,
                                                       revision=revision))
        return task_id

    async def reverted(self, task_id, number):
        read = (await self.readings())[number]
        await self.deliver(PAGE_REVIEW_REVERTED, read.advance(PageReviewReverted, task_id=task_id,
                                                              reverted_by="lead", reason="wrong column"))

    async def emitted(self):
        """The page.extracted events sent for this job, in order."""
        async with self.service.db.transaction() as conn:
            rows = (await conn.execute(sa.select(OUTBOX.c.topic, OUTBOX.c.body)
                                       .where(OUTBOX.c.message_key == self.id).order_by(OUTBOX.c.id))).all()
        assert {row.topic for row in rows} <= {PAGE_EXTRACTED.name}
        return [decode(row.topic, row.body).payload for row in rows]

    async def readings(self):
        """Each page's latest page.extracted."""
        return {event.page: event for event in await self.emitted()}

    async def since(self, count):
        """(page, reading) of the events sent after the first ``count``."""
        return [(e.page, e.reading) for e in (await self.emitted())[count:]]

    def review_bar(self, number):
        """The review bar the page's latest reading was held to, from the extractor's trace record."""
        stored = self.service.storage.get(SCHEME + trace_key(self.id, number, "extraction"))
        return ExtractionTrace.model_validate_json(stored).reader.review_below

    async def lesson_statuses(self):
        async with self.service.db.transaction() as conn:
            return (await conn.execute(sa.select(lessons.c.page, lessons.c.status).where(
                lessons.c.job_id == self.id).order_by(lessons.c.lesson_id))).all()


def models(event):
    return [sku.attributes.model for sku in event.skus]


def item_numbers(number):
    return [item_number(number, n) for n in range(ROWS)]


def corrected(number):
    return [(code, "玻璃杯") for code in item_numbers(number)]


async def test_a_correction_reads_the_other_pages_of_its_layout_again_with_what_it_taught(service):
    job = Job(service, merchant())
    await job.classified(1, 2, 3)
    first = await job.readings()
    layouts = {event.layout for event in first.values()}
    assert len(layouts) == 1 and None not in layouts  # the three pages share one layout
    for event in first.values():  # the committed reader misses the item numbers
        assert (event.reading, event.adapted_from) == (0, None)
        assert models(event) == [None] * ROWS

    task_id = await job.reviewed(1, corrected(1))
    assert await job.since(3) == [(2, 1), (3, 1)]  # the corrected page itself is not read again
    after = await job.readings()
    for number in (2, 3):
        event = after[number]
        assert event.adapted_from == AdaptedFrom(job_id=job.id, page=1, task_id=task_id)
        assert event.layout == first[number].layout
        assert models(event) == item_numbers(number)
        assert event.review_reasons == [] and event.reading_confidence > first[number].reading_confidence
        assert event.reader_version != first[number].reader_version
    async with service.db.transaction() as conn:
        stored = (await conn.execute(sa.select(skus.c.record["attributes"]["model"].astext).where(
            skus.c.job_id == job.id, skus.c.page == 2).order_by(skus.c.sku_id))).scalars().all()
        rows = (await conn.execute(sa.select(page_readings.c.page, page_readings.c.reading,
                                             page_readings.c.reviewed).where(
            page_readings.c.job_id == job.id).order_by(page_readings.c.page))).all()
    assert stored == item_numbers(2)  # the page's SKUs are the new reading's, the old ones gone
    assert rows == [(1, 0, True), (2, 1, False), (3, 1, False)]
    assert await job.lesson_statuses() == [(1, "active")]


async def test_a_page_type_the_classifier_doubted_is_the_corrected_pages_until_the_revert(service):
    job = Job(service, merchant())
    await job.classified(1, 2, kind=classification("A", needs_review=True))
    task_id = await job.reviewed(1, corrected(1))  # the person leaves page 1 typed A
    typed = (await job.readings())[2].classification
    assert (typed.page_type, typed.needs_review) == ("A", False)
    assert typed.reason == "the type a person gave a page of its layout"
    await job.reverted(task_id, 1)
    back = (await job.readings())[2].classification
    assert (back.page_type, back.needs_review, back.reason) == ("A", True, "")  # the classifier's doubt again


async def test_a_scan_whose_keys_ocr_spelled_right_is_read_again_against_the_text_layers_bar(service):
    reader = committed_reader()
    job = Job(service, merchant())
    await job.classified(1, 2, scanned=True)
    assert job.review_bar(2) == reader.review_below.ocr  # a scan: its own, higher bar
    await job.reviewed(1, corrected(1))  # every item number the person kept is printed as OCR read it
    adapted_bars = reader.after_correction.review_below  # a reading adapted to a correction: the bars for those
    assert (await job.readings())[2].reading == 1 and job.review_bar(2) == adapted_bars.text_layer


async def test_a_reviewed_page_is_never_read_again(service):
    job = Job(service, merchant())
    await job.classified(1, 2, 3, 4)
    await job.reviewed(2, [], status="HUMAN_SKIPPED")  # skipped: the page is a person's, and teaches nothing
    assert await job.since(4) == [] and await job.lesson_statuses() == []

    await job.reviewed(1, corrected(1))
    assert await job.since(4) == [(3, 1), (4, 1)]
    await job.reviewed(1, corrected(1))  # the same review again: nothing more is learnt
    assert await job.since(6) == []
    await job.reviewed(3, corrected(3), revision=102)  # the re-read page approved as it was read
    assert await job.since(6) == []  # an approval teaches nothing the reader did not decide
    await job.reviewed(4, corrected(4)[:-1], revision=102)  # a product taken out: a correction
    assert await job.since(6) == [] and [s for _, s in await job.lesson_statuses()] == ["active", "active"]


async def test_a_page_read_after_the_correction_starts_from_it(service):
    job = Job(service, merchant())
    await job.classified(1, 2)
    task_id = await job.reviewed(1, corrected(1))
    await job.classified(3)
    third = (await job.readings())[3]
    assert third.reading == 0 and third.adapted_from == AdaptedFrom(job_id=job.id, page=1, task_id=task_id)
    assert models(third) == item_numbers(3)


async def test_the_merchants_next_job_starts_from_what_was_learnt_and_no_other_merchant_does(service):
    same = merchant()
    earlier = Job(service, same)
    await earlier.classified(1, 2)
    task_id = await earlier.reviewed(1, corrected(1))

    later, stranger = Job(service, same), Job(service, merchant())
    await later.classified(1)
    await stranger.classified(1)
    learnt, unlearnt = (await later.readings())[1], (await stranger.readings())[1]
    assert learnt.adapted_from == AdaptedFrom(job_id=earlier.id, page=1, task_id=task_id)
    assert models(learnt) == item_numbers(1) and not learnt.review_reasons
    assert unlearnt.adapted_from is None and models(unlearnt) == [None] * ROWS


async def test_a_revert_reads_again_every_page_read_with_the_lesson(service):
    same = merchant()
    job, later = Job(service, same), Job(service, same)
    await job.classified(1, 2, 3)
    task_id = await job.reviewed(1, corrected(1))
    await later.classified(1, OTHER_PAGE)
    assert (await later.readings())[1].adapted_from is not None
    assert (await later.readings())[OTHER_PAGE].adapted_from is None

    await job.reverted(task_id, 1)
    assert await job.since(5) == [(2, 2), (3, 2)]  # the reviewed page 1 stays as its person left it
    assert await later.since(2) == [(1, 1)]  # the merchant's later job unlearns it too; its other layout stays
    for event in [*(await job.readings()).values(), *(await later.readings()).values()]:
        if event.reading:
            assert event.adapted_from is None and models(event) == [None] * ROWS
    assert await job.lesson_statuses() == [(1, "reverted")]


async def test_a_revert_leaves_the_pages_the_lessons_left(service):
    job = Job(service, merchant())
    await job.classified(1, 2, 3)
    first = await job.reviewed(1, corrected(1))
    # the re-read page 2 corrected again (a product the reader could not see added): a second lesson
    second = await job.reviewed(2, [*corrected(2), ("GIFT-1", "赠品")], revision=102)
    assert await job.since(3) == [(2, 1), (3, 1), (3, 2)]
    await job.reverted(first, 1)
    third = (await job.readings())[3]
    assert third.reading == 3 and third.adapted_from == AdaptedFrom(job_id=job.id, page=2, task_id=second)
    assert models(third) == item_numbers(3)


async def test_a_correction_that_does_not_fit_a_page_is_doubted_and_every_reading_of_it_flagged(service):
    job = Job(service, merchant())
    await job.classified(1, 2)
    await job.classified(3, coded=False)  # the same list, without item numbers: the reader reads the names
    before = await job.readings()
    assert all(before[number].skus for number in (2, 3))
    # the item numbers are the products: taught, the reader would read nothing on the pages that print none
    await job.reviewed(1, corrected(1))
    assert await job.since(3) == [(2, 1), (3, 1)]
    after = await job.readings()
    # the page that prints them is read with the correction, flagged for a person all the same
    assert models(after[2]) == item_numbers(2) and after[2].adapted_from is not None
    assert after[2].review_reasons[-1] == "adaptation_doubtful:page 1"
    # the page it would read to nothing keeps its SKUs, flagged
    assert after[3].skus == before[3].skus and after[3].adapted_from is None
    assert after[3].review_reasons == [*before[3].review_reasons, "adaptation_doubtful:page 1"]
    assert await job.lesson_statuses() == [(1, "doubted")]
    await job.classified(4)  # a doubted lesson teaches no later page
    assert (await job.readings())[4].adapted_from is None


async def test_a_page_at_its_last_reading_is_not_read_again(service):
    job = Job(service, merchant())
    await job.classified(1, 2, 3)
    async with service.db.transaction() as conn:
        await conn.execute(page_readings.update().where(page_readings.c.job_id == job.id, page_readings.c.page == 3)
                           .values(reading=MAX_READING))
    await job.reviewed(1, corrected(1))
    assert await job.since(3) == [(2, 1)]


async def stored_lesson(service, job_id):
    async with service.db.transaction() as conn:
        return (await conn.execute(sa.select(lessons.c.lesson_id, lessons.c.lesson, lessons.c.products,
                                             lessons.c.reader_version).where(lessons.c.job_id == job_id))).one()


async def as_an_earlier_reader_kept_it(service, job_id, **values):
    """The job's lesson as a reader with one feature fewer measured it (``values``: other columns too)."""
    row = await stored_lesson(service, job_id)
    kept = Lesson.from_bytes(row.lesson)
    async with service.db.transaction() as conn:
        await conn.execute(lessons.update().where(lessons.c.lesson_id == row.lesson_id).values(
            lesson=replace(kept, matrix=kept.matrix[:, :-1]).to_bytes(), reader_version="reader-earlier", **values))
    return kept


async def test_a_lesson_an_earlier_reader_measured_is_learnt_again_by_the_new_one(service):
    """Merchant memory outlives a retrained reader and the job's files: the lesson is measured again from the
    page it keeps, once."""
    same = merchant()
    earlier = Job(service, same)
    await earlier.classified(1, 2)
    task_id = await earlier.reviewed(1, corrected(1))
    row = await stored_lesson(service, earlier.id)
    assert row.reader_version == committed_reader().version
    assert [(p["model"], p["product_name"]) for p in row.products] == corrected(1)
    kept = await as_an_earlier_reader_kept_it(service, earlier.id)
    service.storage.remove_tree(earlier.id)  # the earlier job's files purged

    later = Job(service, same)
    await later.classified(1)
    learnt = (await later.readings())[1]
    assert learnt.adapted_from == AdaptedFrom(job_id=earlier.id, page=1, task_id=task_id)
    assert models(learnt) == item_numbers(1)
    again = await stored_lesson(service, earlier.id)
    assert again.reader_version == committed_reader().version
    assert np.array_equal(Lesson.from_bytes(again.lesson).matrix, kept.matrix)


async def test_a_lesson_kept_before_lessons_kept_their_pages_is_left_out_by_a_new_reader(service):
    same = merchant()
    earlier = Job(service, same)
    await earlier.classified(1, 2)
    await earlier.reviewed(1, corrected(1))
    await as_an_earlier_reader_kept_it(service, earlier.id, page_ir=None, reviewed_reading=None, products=None)

    later = Job(service, same)
    await later.classified(1)
    unlearnt = (await later.readings())[1]
    assert unlearnt.adapted_from is None and models(unlearnt) == [None] * ROWS
    assert (await stored_lesson(service, earlier.id)).reader_version == "reader-earlier"
