"""A page read again within its generation (issue 42), through the binder service on the real Postgres:
handlers driven through `run_handler`, the outbox rows are the output."""

import uuid

import pytest
import sqlalchemy as sa
from binder_pages import classification, parsed_page, region, sku

from skuflow_binder.service import definition, subscriptions
from skuflow_binder.tables import bindings
from skuflow_contracts.codec import decode, envelope_for
from skuflow_contracts.events import AdaptedFrom, PageExtracted
from skuflow_contracts.topics import PAGE_EXTRACTED
from skuflow_platform.consumer import run_handler

OUTBOX = definition.tables.outbox
LEFT, RIGHT = (50, 100, 250, 300), (320, 100, 520, 300)  # two product photos, a caption under each


@pytest.fixture(scope="module")
async def service(service_of):
    async with service_of(definition, subscriptions) as handlers:
        yield handlers


async def test_a_later_reading_is_bound_in_place_of_the_page_and_an_older_one_arriving_late_is_not(service):
    job_id = f"readings-{uuid.uuid4().hex[:8]}"
    page = parsed_page(region("left", LEFT, content="l"), region("right", RIGHT, content="r"))
    uri = service.storage.put(f"{job_id}/p1.json", page.model_dump_json().encode())
    roles = {"left": "PRODUCT_MAIN", "right": "PRODUCT_MAIN"}
    both = [sku((60, 310, 240, 330), 1), sku((330, 310, 510, 330), 2)]
    first = PageExtracted(page=1, total_pages=1, file_hash="f" * 64, route="AUTO", config_version="v1", ir_uri=uri,
                          classification=classification(roles=roles), extraction_method="two_stage", skus=both,
                          layout="t:03.09")
    learnt = AdaptedFrom(job_id="an-earlier-job", page=4, task_id="t-4")
    again = first.model_copy(update={"reading": 1, "adapted_from": learnt, "skus": both[1:]})

    async def deliver(extracted):
        _, envelope = envelope_for(extracted, job_id=job_id, merchant_id="m", producer="test")
        async with service.db.transaction() as conn:
            await run_handler(service.handlers[PAGE_EXTRACTED.name], envelope, conn, definition.tables, "binder")
        async with service.db.transaction() as conn:
            rows = (await conn.execute(sa.select(OUTBOX.c.topic, OUTBOX.c.body).where(
                OUTBOX.c.message_key == job_id).order_by(OUTBOX.c.id))).all()
            bound = dict((await conn.execute(sa.select(bindings.c.sku_id, bindings.c.image_id).where(
                bindings.c.job_id == job_id))).all())
        return [decode(row.topic, row.body).payload for row in rows], bound

    events, bound = await deliver(first)
    assert bound == {"h_p01_001": "left", "h_p01_002": "right"}
    events, bound = await deliver(again)
    assert [(e.reading, e.layout, e.adapted_from) for e in events] == [(0, "t:03.09", None), (1, "t:03.09", learnt)]
    assert [s.sku_id for s in events[1].result.skus] == ["h_p01_002"]
    assert bound == {"h_p01_002": "right"}  # the SKU the new reading dropped is unbound
    events, bound = await deliver(first)  # the first reading, replayed late: it binds nothing
    assert len(events) == 2 and bound == {"h_p01_002": "right"}
