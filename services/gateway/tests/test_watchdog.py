"""Every job ends: the stuck-job watchdog's rule, and one pass of it on the real Postgres."""

import asyncio
import uuid

import sqlalchemy as sa

from skuflow_contracts.codec import decode
from skuflow_gateway.domain.watchdog import StuckVerdict, verdict
from skuflow_gateway.service import definition
from skuflow_gateway.tables import job_pages, jobs
from skuflow_gateway.watchdog import watch_stuck_jobs
from skuflow_platform.db import migrate
from skuflow_platform.runtime import build_app
from skuflow_platform.settings import PlatformSettings

HOUR = 3600


def test_a_job_within_its_limit_or_finished_is_left_alone():
    assert verdict(False, 3, {1}, idle_seconds=10, limit_seconds=HOUR) is None
    assert verdict(True, 3, {1}, idle_seconds=5 * HOUR, limit_seconds=HOUR) is None


def test_a_stuck_job_has_its_missing_pages_failed_or_is_failed_as_a_whole():
    assert verdict(False, 4, {1, 3}, 2 * HOUR, HOUR) == StuckVerdict(missing_pages=(2, 4))
    assert verdict(False, None, set(), 2 * HOUR, HOUR) == StuckVerdict(fail_job=True)
    assert verdict(False, 2, {1, 2}, 2 * HOUR, HOUR) is None  # only job.completed is late


async def test_one_pass_fails_the_missing_pages_of_stuck_jobs_and_rejects_jobs_with_nothing(database_url, tmp_path):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    app = build_app(definition, PlatformSettings(database_url=database_url, storage_root=tmp_path))
    ctx = app.state.ctx
    stuck, silent, fresh = (f"wd-{name}-{uuid.uuid4().hex[:6]}" for name in ("stuck", "silent", "fresh"))
    two_hours_ago = sa.func.now() - sa.text("interval '2 hours'")
    async with ctx.db.transaction() as conn:
        for job_id, status, total, when in ((stuck, "PROCESSING", 3, two_hours_ago),
                                            (silent, "EVALUATING", None, two_hours_ago),
                                            (fresh, "PROCESSING", 3, sa.func.now())):
            await conn.execute(jobs.insert().values(
                job_id=job_id, merchant_id="m-wd", uploaded_by="u", filename="c.pdf", file_hash="0" * 64,
                file_uri="local://x", size_bytes=1, status=status, total_pages=total, updated_at=when))
        await conn.execute(job_pages.insert().values(job_id=stuck, page=1, status="AI_COMPLETED",
                                                     updated_at=two_hours_ago))

    assert await watch_stuck_jobs(ctx, limit_seconds=HOUR) == 2
    outbox = ctx.tables.outbox
    async with ctx.db.transaction() as conn:
        rows = (await conn.execute(sa.select(outbox.c.topic, outbox.c.body).where(
            outbox.c.message_key.in_([stuck, silent, fresh])))).all()
        statuses = dict((await conn.execute(sa.select(jobs.c.job_id, jobs.c.status).where(
            jobs.c.job_id.in_([stuck, silent, fresh])))).all())
    failed = sorted(decode(row.topic, row.body).payload.page for row in rows)
    assert failed == [2, 3]
    assert statuses == {stuck: "PROCESSING", silent: "REJECTED", fresh: "PROCESSING"}
    assert await watch_stuck_jobs(ctx, limit_seconds=HOUR) == 0  # acted on: not again within the limit
    await ctx.db.close()
