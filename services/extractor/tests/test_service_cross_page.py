"""The extractor service's cross-page deferral on the real Postgres: handlers driven through `run_handler`.

Page 3 continues page 2's table but arrives first: it waits in ``deferred_pages``; page 2's arrival
(or its ``page.failed``) releases it in the same transaction. No Kafka: the outbox rows are the output.
"""

import uuid

import sqlalchemy as sa
from extractor_pages import HASH, HEADER, body_rows, classification, page, table

from skuflow_contracts.codec import decode, envelope_for
from skuflow_contracts.events import PageClassified, PageFailed
from skuflow_contracts.topics import PAGE_CLASSIFIED, PAGE_EXTRACTED, PAGE_FAILED
from skuflow_extractor.service import definition
from skuflow_extractor.tables import deferred_pages, page_tables
from skuflow_platform.consumer import run_handler

OUTBOX = definition.tables.outbox
PAGES = {2: page(*table(0, 100, [HEADER, *body_rows(1, 2)]), number=2),
         3: page(*table(0, 60, body_rows(3, 2)), number=3)}


class Job:
    def __init__(self, service):
        self.service, self.id = service, f"cross-page-{uuid.uuid4().hex[:8]}"

    async def deliver(self, topic, payload):
        _, envelope = envelope_for(payload, job_id=self.id, merchant_id="m1", producer="test")
        async with self.service.db.transaction() as conn:
            await run_handler(self.service.handlers[topic.name], envelope, conn, definition.tables, "extractor")

    async def classified(self, number):
        uri = self.service.storage.put(f"{self.id}/p{number}.json", PAGES[number].model_dump_json().encode())
        await self.deliver(PAGE_CLASSIFIED, PageClassified(
            page=number, total_pages=3, file_hash=HASH, route="AUTO", config_version="v1", ir_uri=uri,
            classification=classification("A")))

    async def failed(self, number):
        await self.deliver(PAGE_FAILED, PageFailed(page=number, total_pages=3, stage="classifier", error="boom",
                                                   dlq_topic="skuflow.page.classified.dlq"))

    async def emitted(self):
        """The page.extracted events in the outbox, by page."""
        async with self.service.db.transaction() as conn:
            rows = (await conn.execute(sa.select(OUTBOX.c.topic, OUTBOX.c.body)
                                       .where(OUTBOX.c.message_key == self.id).order_by(OUTBOX.c.id))).all()
        assert {row.topic for row in rows} <= {PAGE_EXTRACTED.name}
        return {e.payload.page: e.payload for e in (decode(row.topic, row.body) for row in rows)}

    async def rows(self, table):
        async with self.service.db.transaction() as conn:
            return (await conn.execute(sa.select(table).where(table.c.job_id == self.id))).all()


def models(event):
    return [(sku.attributes.model, sku.attributes.size) for sku in event.skus]


async def test_a_continuation_arriving_first_waits_for_the_previous_page_then_inherits_its_header(service):
    job = Job(service)
    await job.classified(3)
    assert await job.emitted() == {}
    [waiting] = await job.rows(deferred_pages)
    assert waiting.page == 3 and waiting.event["page"] == 3

    await job.classified(2)
    events = await job.emitted()
    assert list(events) == [2, 3]  # page 2 first, then the page it released
    assert models(events[2]) == [("SF-0001", "100ml"), ("SF-0002", "200ml")]
    assert models(events[3]) == [("SF-0003", "300ml"), ("SF-0004", "400ml")]  # read under page 2's header
    assert events[3].extraction_method == "table_rule" and events[3].fallback_reason is None
    assert await job.rows(deferred_pages) == []
    assert {row.page: row.merged_from for row in await job.rows(page_tables)} == {2: None, 3: 2}


async def test_in_order_arrival_reads_the_continuation_at_once(service):
    job = Job(service)
    await job.classified(2)
    await job.classified(3)
    events = await job.emitted()
    assert models(events[3]) == [("SF-0003", "300ml"), ("SF-0004", "400ml")]
    assert await job.rows(deferred_pages) == []


async def test_a_failed_previous_page_releases_the_waiting_page_read_on_its_own(service):
    job = Job(service)
    await job.classified(3)
    await job.failed(2)
    events = await job.emitted()
    assert list(events) == [3]
    assert [sku.attributes.model for sku in events[3].skus] == ["SF-0003", "SF-0004"]
    assert all(set(sku.attribute_source.values()) == {"inferred_columns"} for sku in events[3].skus)
    rows = {row.page: row for row in await job.rows(page_tables)}
    assert (rows[2].header, rows[2].merged_from, rows[3].merged_from) == (None, None, None)
    assert await job.rows(deferred_pages) == []


async def test_a_redelivered_page_is_not_extracted_twice(service):
    job = Job(service)
    await job.classified(2)
    await job.classified(2)
    async with service.db.transaction() as conn:
        count = (await conn.execute(sa.select(sa.func.count()).select_from(OUTBOX)
                                    .where(OUTBOX.c.message_key == job.id))).scalar_one()
    assert count == 1


async def test_a_page_replayed_from_the_dlq_is_extracted_despite_its_placeholder(service):
    """page.failed left a placeholder for page 2; the replayed page 2 must still be read and emitted."""
    job = Job(service)
    await job.failed(2)
    await job.classified(2)
    events = await job.emitted()
    assert [sku.attributes.model for sku in events[2].skus] == ["SF-0001", "SF-0002"]
    [row] = await job.rows(page_tables)
    assert not row.placeholder and row.header is not None
    await job.classified(2)  # a second replay is a duplicate like any other
    assert list(await job.emitted()) == [2]
