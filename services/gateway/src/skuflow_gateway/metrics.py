"""Gateway metrics: the jobs as an operator watches them (in flight and the config versions they are
frozen to, stuck, how long they took and what their model calls cost) and the dead letters waiting for
a replay. The gateway sees every job, so it owns the job-level figures."""

from __future__ import annotations

from collections import Counter as Tally

import sqlalchemy as sa
from prometheus_client import Counter, Gauge, Histogram
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_contracts.profile import PROFILES
from skuflow_contracts.topics import EVENT_TOPICS
from skuflow_gateway.domain.job_states import settled
from skuflow_gateway.domain.jobs import llm_cost_usd
from skuflow_gateway.tables import job_pages, jobs, profile_versions
from skuflow_platform.dlq import REPLAY_GROUP
from skuflow_platform.lag import Reading, lags
from skuflow_platform.metrics import CATEGORY_LIMIT, UNKNOWN_LABEL, CappedLabel, once_committed

JOBS_IN_FLIGHT = Gauge("skuflow_jobs_in_flight", "Jobs not in a terminal state")
JOBS_ACTIVE = Gauge("pdf_job_active_count", "Jobs not in a terminal state, by status", ["status"])
JOBS_STUCK = Gauge("skuflow_jobs_stuck", "Jobs the watchdog's last pass found stuck")
ORPHANS = Counter("orphan_job_detected_total", "Stuck jobs the watchdog acted on")
JOB_SECONDS = Histogram("pdf_job_total_duration_seconds", "Seconds from a job's creation to its completion",
                        ["route"], buckets=(10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 21600, 86400))
CONFIG_VERSIONS = Gauge("config_version_in_use", "Jobs not in a terminal state, by the config version they "
                        "are frozen to", ["config_version"])
DOCUMENT_COST = Histogram("cost_per_document", "USD a job's model calls cost, at its completion", ["category", "route"],
                          buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25))
CATEGORIES = CappedLabel(CATEGORY_LIMIT)
DLQ_DEPTH = Gauge("skuflow_dlq_depth", "Dead letters of a topic not replayed yet", ["topic"])
DEAD_LETTERS = [Reading(REPLAY_GROUP, topic.dlq) for topic in EVENT_TOPICS]


async def measure_jobs(conn: AsyncConnection) -> None:
    rows = (await conn.execute(
        sa.select(jobs.c.status, jobs.c.result_uri.is_not(None), jobs.c.config_version, sa.func.count())
        .group_by(jobs.c.status, jobs.c.result_uri.is_not(None), jobs.c.config_version))).all()
    by_status: Tally[str] = Tally()
    by_version: Tally[str] = Tally()
    for status, closed, version, count in rows:
        if not settled(status, closed):
            by_status[status] += count
            by_version[version or "none"] += count
    _show(JOBS_ACTIVE, by_status)
    _show(CONFIG_VERSIONS, by_version)
    JOBS_IN_FLIGHT.set(sum(by_status.values()))


def _show(gauge: Gauge, counts: Tally[str]) -> None:
    """The gauge holds exactly ``counts``: a label with no job left is dropped, not kept at its last value."""
    gauge.clear()
    for label, count in counts.items():
        gauge.labels(label).set(count)


async def measure_dead_letters(bootstrap: str) -> None:
    """Letters in each ``<topic>.dlq`` past what a whole-topic replay committed (``skuflow-dlq replay``)."""
    for reading, depth in (await lags(bootstrap, DEAD_LETTERS)).items():
        DLQ_DEPTH.labels(reading.topic.removesuffix(".dlq")).set(depth)


def count_stuck(jobs_found: int) -> None:
    JOBS_STUCK.set(jobs_found)
    ORPHANS.inc(jobs_found)


async def count_completed(conn: AsyncConnection, job_id: str) -> None:
    """A completion applied: its time since upload, and what the job's model calls cost (seed-001b §3.1 #4, #24)."""
    job = (await conn.execute(sa.select(jobs.c.route, jobs.c.evaluation, jobs.c.config_version, sa.func.extract(
        "epoch", sa.func.now() - jobs.c.created_at).label("seconds")).where(jobs.c.job_id == job_id))).one()
    page_costs = (await conn.execute(sa.select(job_pages.c.llm_cost_usd).where(job_pages.c.job_id == job_id))
                  ).scalars().all()
    route = job.route or "none"
    once_committed(JOB_SECONDS.labels(route).observe, float(job.seconds))
    once_committed(DOCUMENT_COST.labels(CATEGORIES(await category_of(conn, job.config_version)), route).observe,
                   llm_cost_usd(job.evaluation, page_costs))


async def category_of(conn: AsyncConnection, config_version: str | None) -> str:
    """The category of the profile a job is frozen to: a merchant's version, or a built-in profile."""
    if config_version is None:
        return UNKNOWN_LABEL
    stored = await conn.scalar(sa.select(profile_versions.c.settings["category"].astext).where(
        profile_versions.c.config_version == config_version))
    builtin = PROFILES.get(config_version)
    return stored or (builtin.category if builtin else UNKNOWN_LABEL)
