"""The job's timeline: what its uploader sees happen (seed-001b §2.4 SSE events), one numbered row
per event, written in the same transaction as the change it reports.

Events are numbered per job by bumping ``jobs.event_seq``: the row lock that takes is held until
commit, so a job's events commit in number order, and a reader that has seen number N has seen every
number below it (a global sequence would not promise that). The number is the SSE event id, so a
client that reconnects with ``Last-Event-ID`` gets exactly the events it missed.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_gateway.tables import job_events, jobs

STATUS, PAGE_STARTED, PAGE_COMPLETED, PAGE_REVIEWED = "status", "page_started", "page_completed", "page_reviewed"
HUMAN_NEEDED, JOB_COMPLETED, JOB_FAILED = "human_needed", "job_completed", "job_failed"
JOB_CANCELLED, PAGE_RETRIED, PAGE_IMPORTED = "job_cancelled", "page_retried", "page_imported"
JOB_REPROCESSED = "job_reprocessed"


async def record(conn: AsyncConnection, job_id: str, kind: str, **data: object) -> None:
    """Number the event and write it, in one statement; the job's ``updated_at`` is the time of its
    latest event. An unknown job gets no event."""
    numbered = (jobs.update().where(jobs.c.job_id == job_id)
                .values(event_seq=jobs.c.event_seq + 1, updated_at=sa.func.now())
                .returning(jobs.c.job_id, jobs.c.event_seq).cte("numbered"))
    await conn.execute(job_events.insert().from_select(
        ["job_id", "seq", "kind", "data"],
        sa.select(numbered.c.job_id, numbered.c.event_seq, sa.literal(kind), sa.literal(data, job_events.c.data.type)),
    ).add_cte(numbered))


async def since(conn: AsyncConnection, job_id: str, after: int, limit: int = 500) -> list[sa.Row]:
    return (await conn.execute(sa.select(job_events.c.seq, job_events.c.kind, job_events.c.data)
                               .where(job_events.c.job_id == job_id, job_events.c.seq > after)
                               .order_by(job_events.c.seq).limit(limit))).all()
