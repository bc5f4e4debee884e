"""Gateway metrics: the jobs as an operator watches them (in flight, stuck, how long they took) and
the dead letters waiting for a replay. The gateway sees every job, so it owns the job-level figures."""

from __future__ import annotations

import sqlalchemy as sa
from prometheus_client import Counter, Gauge, Histogram
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_contracts.topics import EVENT_TOPICS
from skuflow_gateway.domain.job_states import settled
from skuflow_gateway.tables import jobs
from skuflow_platform.dlq import REPLAY_GROUP
from skuflow_platform.lag import Reading, lags

JOBS_IN_FLIGHT = Gauge("skuflow_jobs_in_flight", "Jobs not in a terminal state")
JOBS_ACTIVE = Gauge("pdf_job_active_count", "Jobs not in a terminal state, by status", ["status"])
JOBS_STUCK = Gauge("skuflow_jobs_stuck", "Jobs the watchdog's last pass found stuck")
ORPHANS = Counter("orphan_job_detected_total", "Stuck jobs the watchdog acted on")
JOB_SECONDS = Histogram("pdf_job_total_duration_seconds", "Seconds from a job's creation to its completion",
                        ["route"], buckets=(10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 21600, 86400))
DLQ_DEPTH = Gauge("skuflow_dlq_depth", "Dead letters of a topic not replayed yet", ["topic"])
DEAD_LETTERS = [Reading(REPLAY_GROUP, topic.dlq) for topic in EVENT_TOPICS]


async def measure_jobs(conn: AsyncConnection) -> None:
    rows = (await conn.execute(sa.select(jobs.c.status, jobs.c.result_uri.is_not(None), sa.func.count())
                               .group_by(jobs.c.status, jobs.c.result_uri.is_not(None)))).all()
    active: dict[str, int] = {}
    for status, closed, count in rows:
        if not settled(status, closed):
            active[status] = active.get(status, 0) + count
    JOBS_ACTIVE.clear()
    for status, count in active.items():
        JOBS_ACTIVE.labels(status).set(count)
    JOBS_IN_FLIGHT.set(sum(active.values()))


async def measure_dead_letters(bootstrap: str) -> None:
    """Letters in each ``<topic>.dlq`` past what a whole-topic replay committed (``skuflow-dlq replay``)."""
    for reading, depth in (await lags(bootstrap, DEAD_LETTERS)).items():
        DLQ_DEPTH.labels(reading.topic.removesuffix(".dlq")).set(depth)


def count_stuck(jobs_found: int) -> None:
    JOBS_STUCK.set(jobs_found)
    ORPHANS.inc(jobs_found)


async def count_completed(conn: AsyncConnection, job_id: str) -> None:
    route, seconds = (await conn.execute(sa.select(jobs.c.route, sa.func.extract(
        "epoch", sa.func.now() - jobs.c.created_at)).where(jobs.c.job_id == job_id))).one()
    JOB_SECONDS.labels(route or "none").observe(float(seconds))
