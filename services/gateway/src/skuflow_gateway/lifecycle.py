"""Moving a job through its state machine: lock the row, fire the trigger, write the audit row and
the timeline event.

The one place a job's status is written (the upload, the status events, the watchdog). A refused
move is a late or repeated event: it is counted and logged, and changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from uuid import UUID

import sqlalchemy as sa
from prometheus_client import Counter
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_gateway import timeline
from skuflow_gateway.domain.job_states import JOB, settled
from skuflow_gateway.tables import jobs, platform
from skuflow_platform.metrics import once_committed
from skuflow_platform.states import Refused

log = logging.getLogger(__name__)
Triggers = list[str] | Callable[[str], list[str]]
REFUSED_MOVES = Counter("skuflow_refused_transitions_total",
                        "status events the state machine refused (late or repeated)", ["entity", "trigger"])


async def audit(conn: AsyncConnection, job_id: str, from_status: str | None, to_status: str, trigger: str,
                reason: str | None = None, event_id: UUID | None = None, detail: dict | None = None) -> None:
    """The audit row of a move, and its event on the job's timeline (what the uploader sees)."""
    await conn.execute(platform.state_transitions.insert().values(
        entity="job", entity_id=job_id, from_status=from_status, to_status=to_status, reason=reason,
        event_id=event_id, detail={"trigger": trigger, **(detail or {})}))
    await timeline.record(conn, job_id, timeline.STATUS, status=to_status, previous=from_status, trigger=trigger)


async def move_job(conn: AsyncConnection, job_id: str, triggers: Triggers, *, reason: str | None = None,
                   event_id: UUID | None = None, detail: dict | None = None, **values: object) -> str | None:
    """Fire ``triggers`` (or what they are for its status) in turn on the locked job; ``values`` are
    written with the moves, and ``completed_at``: now when the moves leave the job completed (a new
    completion), cleared when they leave it running. Returns the new status, or None when the job is
    unknown or the table refused a move (then nothing is written)."""
    job = (await conn.execute(sa.select(jobs.c.status, jobs.c.result_uri).where(jobs.c.job_id == job_id)
                              .with_for_update())).first()
    if job is None:
        return None
    current = job.status
    try:
        moves = JOB.path(current, triggers(current) if callable(triggers) else triggers)
    except Refused as refused:
        once_committed(REFUSED_MOVES.labels("job", refused.trigger).inc)
        log.info("refused job move", extra={"fields": {"job_id": job_id, "refused": str(refused)}})
        return None
    for before, trigger, after in moves:
        if after != before:
            await audit(conn, job_id, before, after, trigger, reason, event_id, detail)
    status = moves[-1][2] if moves else current
    closed = values.get("result_uri", job.result_uri) is not None
    await conn.execute(jobs.update().where(jobs.c.job_id == job_id).values(
        status=status, updated_at=sa.func.now(), completed_at=sa.func.now() if settled(status, closed) else None,
        **values))
    return status


async def stale(conn: AsyncConnection, job_id: str, generation: int) -> bool:
    """Lock the job row (its events then apply one at a time) and say whether an event of
    ``generation`` belongs to a reading a full reprocess has replaced since."""
    current = (await conn.execute(sa.select(jobs.c.generation).where(jobs.c.job_id == job_id)
                                  .with_for_update())).scalar_one_or_none()
    return current is not None and generation < current


async def create_job(conn: AsyncConnection, job_id: str, **values: object) -> str:
    """Insert an uploaded job, already handed to the evaluator (its job.created goes out in the same
    transaction); returns its status."""
    moves = JOB.path(None, ["upload", "start_eval"])
    status = moves[-1][2]
    await conn.execute(jobs.insert().values(job_id=job_id, status=status, **values))
    for before, trigger, after in moves:
        await audit(conn, job_id, before, after, trigger)
    return status
