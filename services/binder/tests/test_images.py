"""The image state table (seed-001a §5.5): its moves, each image's path to a delivery verdict, and
the binder's ``images`` rows and audit on the real Postgres (INV-03 as a CHECK)."""

import asyncio
import uuid

import pytest
import sqlalchemy as sa
from binder_pages import img, region
from sqlalchemy.exc import IntegrityError

from skuflow_binder.domain.images import IMAGE, image_path, image_row
from skuflow_binder.service import definition, record_images
from skuflow_binder.tables import images, platform
from skuflow_contracts.codec import envelope_for
from skuflow_contracts.events import JobCancelled
from skuflow_contracts.results import ImageRecord
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.db import Database, migrate
from tests.state_tables import table_tests

ALLOWED = [
    (None, "extract", "EXTRACTED"),
    ("EXTRACTED", "quality_assess", "QUALITY_ASSESSED"),
    ("QUALITY_ASSESSED", "role_classify", "ROLE_CLASSIFIED"),
    ("ROLE_CLASSIFIED", "deliver", "DELIVERABLE"),
    ("ROLE_CLASSIFIED", "withhold", "NOT_DELIVERABLE"),
]
REFUSED = [
    ("EXTRACTED", "role_classify"),  # its quality is assessed first (INV-03)
    ("QUALITY_ASSESSED", "deliver"),  # no verdict before its role
    ("DELIVERABLE", "withhold"),  # final
    ("NOT_DELIVERABLE", "deliver"),
    (None, "deliver"),
]

test_allowed_moves, test_refused_moves = table_tests(IMAGE, ALLOWED, REFUSED)


@pytest.mark.parametrize("record, verdict", [
    (img("a", (0, 0, 1, 1)), "DELIVERABLE"),
    (img("b", (0, 0, 1, 1), role="SIZE_CHART"), "DELIVERABLE"),
    (img("c", (0, 0, 1, 1), duplicate=True), "NOT_DELIVERABLE"),
    (img("d", (0, 0, 1, 1), role="LOGO"), "NOT_DELIVERABLE"),
    (img("e", (0, 0, 1, 1), role="DECORATION"), "NOT_DELIVERABLE"),
])
def test_duplicates_logos_and_decorations_are_not_delivered(record, verdict):
    path = image_path(record)
    assert [to for _, _, to in path] == ["EXTRACTED", "QUALITY_ASSESSED", "ROLE_CLASSIFIED", verdict]


def test_a_small_image_is_delivered_graded_low_and_kept_out_of_search():
    small = ImageRecord(image_id="s", bbox=(0, 0, 1, 1), role="PRODUCT_MAIN", short_edge=300,
                        quality_warning="low_resolution")
    row = image_row(small, region("s", px=300))
    assert (row["status"], row["quality_grade"], row["search_eligible"]) == ("DELIVERABLE", "LOW_QUALITY", False)
    large = image_row(img("l", (0, 0, 1, 1)), region("l", px=700))
    assert (large["quality_grade"], large["search_eligible"]) == ("HIGH", True)


async def test_a_page_images_are_stored_with_their_states_and_audited(database_url):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    db = Database(database_url)
    job_id = f"img-{uuid.uuid4().hex[:8]}"
    _, envelope = envelope_for(JobCancelled(cancelled_by="test"), job_id=job_id, merchant_id="m", producer="test")

    async def record(records, regions):
        async with db.transaction() as conn:
            await record_images(UnitOfWork(conn, envelope, platform, "binder"), 1, records, regions)

    await record([img("p", (0, 0, 1, 1)), img("logo", (0, 0, 1, 1), role="LOGO")],
                 [region("p", px=700), region("logo", px=100)])
    await record([img("p", (0, 0, 1, 1))], [region("p", px=700)])  # the page read again (a retry)
    async with db.transaction() as conn:
        rows = (await conn.execute(sa.select(images.c.image_id, images.c.status).where(
            images.c.job_id == job_id))).all()
        audit = (await conn.execute(sa.select(platform.state_transitions.c.to_status).where(
            platform.state_transitions.c.entity_id == f"{job_id}/logo"))).scalars().all()
    with pytest.raises(IntegrityError):  # INV-03: search eligibility needs a 640 px short edge
        async with db.transaction() as conn:
            await conn.execute(images.insert().values(
                job_id=job_id, image_id="bad", page=1, role="PRODUCT_MAIN", bbox=[0, 0, 1, 1], short_edge=100,
                quality_grade="LOW_QUALITY", search_eligible=True, is_fragmented=False, is_duplicate=False,
                status="DELIVERABLE"))
    await db.close()
    assert rows == [("p", "DELIVERABLE")]
    assert audit == ["EXTRACTED", "QUALITY_ASSESSED", "ROLE_CLASSIFIED", "NOT_DELIVERABLE"]
