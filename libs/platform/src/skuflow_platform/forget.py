"""Forgetting a deleted job: when the merchant deletes a job (``job.deleted``), every service removes
what its schema holds of it, so that the deletion reaches everywhere without the gateway knowing
anyone's tables.

What a service holds of a job: each of its tables with a ``job_id`` column, its outbox messages
keyed by the job (an unsent one is not sent), and its audit rows naming the job. The inbox keeps
only event ids, which say nothing of the merchant's catalog. Caches keyed by the file's hash and
not by a job (the evaluator's) are kept: they are not the job's and hold scores, not content.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import JobDeleted
from skuflow_platform.consumer import Handler, UnitOfWork
from skuflow_platform.tables import PlatformTables


async def forget(conn: AsyncConnection, metadata: sa.MetaData, tables: PlatformTables, job_id: str) -> None:
    """Delete what the schema of ``metadata`` holds of the job (the gateway calls it in the request)."""
    for table in reversed(metadata.sorted_tables):
        if "job_id" in table.c:
            await conn.execute(table.delete().where(table.c.job_id == job_id))
    await conn.execute(tables.outbox.delete().where(tables.outbox.c.message_key == job_id))
    audit = tables.state_transitions
    await conn.execute(audit.delete().where(sa.or_(
        audit.c.entity_id == job_id, audit.c.entity_id.startswith(f"{job_id}/", autoescape=True),
        audit.c.entity_id.contains(f"/{job_id}/", autoescape=True))))


def forget_job(metadata: sa.MetaData, tables: PlatformTables) -> Handler:
    async def on_job_deleted(envelope: EventEnvelope[JobDeleted], uow: UnitOfWork) -> None:
        await forget(uow.conn, metadata, tables, envelope.job_id)

    return on_job_deleted
