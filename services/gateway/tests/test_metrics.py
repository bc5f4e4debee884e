"""The gateway's job figures on the real Postgres: the jobs running on each config version
(config_version_in_use, seed-001b §3.1 #16), what a completed job's model calls cost by its profile's
category and route (cost_per_document, #24), and a job.routed that breaks INV-11 counted (#33)."""

import asyncio
import uuid

import pytest
from prometheus_client import REGISTRY

from skuflow_contracts.codec import envelope_for
from skuflow_contracts.events import JobRouted
from skuflow_contracts.topics import JOB_ROUTED
from skuflow_gateway.metrics import count_completed, measure_jobs
from skuflow_gateway.service import definition, subscriptions
from skuflow_gateway.tables import job_pages, jobs, profile_versions
from skuflow_platform.consumer import run_handler
from skuflow_platform.db import Database, migrate

HASH = "8b" * 32


@pytest.fixture
async def db(database_url):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    database = Database(database_url)
    yield database
    await database.close()


async def add_job(db: Database, status: str, config_version: str | None, **values: object) -> str:
    job_id = f"gm-{uuid.uuid4().hex[:8]}"
    async with db.transaction() as conn:
        await conn.execute(jobs.insert().values(job_id=job_id, merchant_id="m", uploaded_by="u", filename="c.pdf",
                                                file_hash=HASH, file_uri="local://c.pdf", size_bytes=1, status=status,
                                                config_version=config_version, **values))
    return job_id


def in_use(config_version: str) -> float | None:
    return REGISTRY.get_sample_value("config_version_in_use", {"config_version": config_version})


def cost(part: str, category: str, route: str) -> float:
    return REGISTRY.get_sample_value(f"cost_per_document_{part}", {"category": category, "route": route}) or 0.0


async def test_each_config_version_shows_its_running_jobs_and_goes_when_none_is_left(db):
    first, second = (f"m:p-{uuid.uuid4().hex[:6]}:v1" for _ in range(2))
    running = [await add_job(db, "PROCESSING", first), await add_job(db, "EVALUATING", first)]
    await add_job(db, "PARTIAL_IMPORTED", second)
    await add_job(db, "FULL_IMPORTED", second, result_uri="local://r.json")  # finished: not in use
    async with db.transaction() as conn:
        await measure_jobs(conn)
    assert (in_use(first), in_use(second)) == (2, 1)
    async with db.transaction() as conn:
        await conn.execute(jobs.update().where(jobs.c.job_id.in_(running)).values(status="CANCELLED"))
        await measure_jobs(conn)
    assert (in_use(first), in_use(second)) == (None, 1)


async def test_a_completed_jobs_cost_is_its_evaluation_and_its_pages_under_its_profiles_category(db):
    category, version = f"sofas-{uuid.uuid4().hex[:6]}", f"m:sofas-{uuid.uuid4().hex[:6]}:v1"
    async with db.transaction() as conn:
        await conn.execute(profile_versions.insert().values(
            merchant_id="m", profile_id=version.split(":")[1], version="v1", config_version=version,
            settings={"version": version, "category": category}, created_by="u"))
    job_id = await add_job(db, "FULL_IMPORTED", version, route="AUTO", evaluation={"llm_cost_usd": 0.01})
    before = {name: cost(name, "general", "HYBRID") for name in ("sum", "count")}
    builtin = await add_job(db, "FULL_IMPORTED", "v1", route="HYBRID")
    unknown = await add_job(db, "FULL_IMPORTED", None, route="AUTO")
    async with db.transaction() as conn:
        await conn.execute(job_pages.insert(), [{"job_id": job_id, "page": 1, "status": "AI_COMPLETED",
                                                 "llm_cost_usd": 0.02},
                                                {"job_id": job_id, "page": 2, "status": "AI_COMPLETED",
                                                 "llm_cost_usd": 0.03},
                                                {"job_id": builtin, "page": 1, "status": "AI_COMPLETED",
                                                 "llm_cost_usd": 0.5}])
        unknown_count = cost("count", "unknown", "AUTO")
        for done in (job_id, builtin, unknown):
            await count_completed(conn, done)
    assert (cost("sum", category, "AUTO"), cost("count", category, "AUTO")) == (pytest.approx(0.06), 1)
    assert cost("sum", "general", "HYBRID") == pytest.approx(before["sum"] + 0.5)  # the built-in profile's category
    assert cost("count", "general", "HYBRID") == before["count"] + 1
    assert cost("count", "unknown", "AUTO") == unknown_count + 1  # frozen to no version


async def test_a_routing_that_breaks_inv_11_is_counted_and_one_without_a_reason_is_not(db):
    [handler] = [handler for topic, handler in subscriptions(None) if topic == JOB_ROUTED]
    violations = REGISTRY.get_sample_value("invariant_violation_total", {"invariant_id": "INV-11"}) or 0.0
    for route, reason in (("AUTO", "low_score"), ("HUMAN_ALL", None), ("AUTO", None)):
        job_id = await add_job(db, "EVALUATING", "v1")
        _, envelope = envelope_for(JobRouted(route=route, degrade_reason=reason, file_uri="local://c.pdf",
                                             file_hash=HASH, config_version="v1"),
                                   job_id=job_id, merchant_id="m", producer="test")
        async with db.transaction() as conn:
            await run_handler(handler, envelope, conn, definition.tables, "gateway")
    # INV-11 is AUTO ⇒ no degrade_reason; HUMAN_ALL without one is only a route/status mismatch (seed-001b §2.3)
    assert REGISTRY.get_sample_value("invariant_violation_total", {"invariant_id": "INV-11"}) == violations + 1
