"""Retention as the gateway runs it: the hourly cleanup of files past their lifetime, the disk
guard on uploads, and deleting a job everywhere (domain/retention.py has the rules).

The cleanup is one replica at a time (a transaction-scoped advisory lock) and marks each job whose
files it removed, so the API can say the files are gone (410) rather than fail to find them.
"""

from __future__ import annotations

import asyncio
import logging

import sqlalchemy as sa
from prometheus_client import Gauge
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_contracts.events import JobDeleted
from skuflow_gateway.domain.job_states import JOB
from skuflow_gateway.domain.retention import OK, DiskLimits, disk_state, job_prefixes
from skuflow_gateway.tables import jobs, metadata, platform
from skuflow_platform.auth import Principal
from skuflow_platform.db import from_now
from skuflow_platform.forget import forget
from skuflow_platform.outbox import add_to_outbox
from skuflow_platform.runtime import Periodic, ServiceContext
from skuflow_platform.settings import PlatformSettings

log = logging.getLogger(__name__)
LOCK_KEY = 0x5C0F_0002  # the advisory lock that makes one replica the cleaner at a time
DISK_USAGE = Gauge("skuflow_disk_usage_ratio", "how full the disk holding the file store is (0-1)")


class RetentionSettings(PlatformSettings):
    file_retention_days: float = 30.0
    cleanup_interval_seconds: float = 3600.0
    disk_warning_ratio: float = 0.75
    disk_urgent_ratio: float = 0.85
    disk_refuse_ratio: float = 0.95

    @property
    def limits(self) -> DiskLimits:
        return DiskLimits(self.disk_warning_ratio, self.disk_urgent_ratio, self.disk_refuse_ratio)


async def disk_state_now(ctx: ServiceContext, limits: DiskLimits) -> str:
    ratio = await asyncio.to_thread(ctx.storage.used_ratio)
    DISK_USAGE.set(ratio)
    state = disk_state(ratio, limits)
    if state != OK:
        log.warning("disk filling", extra={"fields": {"used_ratio": round(ratio, 3), "state": state}})
    return state


async def purge_expired_files(ctx: ServiceContext, retention_days: float) -> int:
    """Remove the files of jobs finished longer than ``retention_days`` ago; returns how many jobs."""
    async with ctx.db.transaction() as conn:
        if not (await conn.execute(sa.select(sa.func.pg_try_advisory_xact_lock(LOCK_KEY)))).scalar_one():
            return 0
        expired = (await conn.execute(sa.select(jobs.c.job_id).where(
            jobs.c.files_purged_at.is_(None), jobs.c.status.in_(JOB.final) | jobs.c.result_uri.is_not(None),
            jobs.c.updated_at < from_now(-retention_days * 86400),
        ).with_for_update(skip_locked=True))).scalars().all()
        for job_id in expired:
            files = await remove_files(ctx, job_id)
            await conn.execute(jobs.update().where(jobs.c.job_id == job_id).values(files_purged_at=sa.func.now()))
            log.info("job files removed after their lifetime", extra={"fields": {"job_id": job_id, "files": files}})
    return len(expired)


async def remove_files(ctx: ServiceContext, job_id: str) -> int:
    return sum([await asyncio.to_thread(ctx.storage.remove_tree, prefix) for prefix in job_prefixes(job_id)])


async def delete_job(ctx: ServiceContext, conn: AsyncConnection, job: sa.Row, who: Principal) -> None:
    """The gateway forgets the job now, as every other service does on ``job.deleted``
    (skuflow_platform.forget). The audit row of the deletion is written after, and kept."""
    await forget(conn, metadata, platform, job.job_id)
    await conn.execute(platform.state_transitions.insert().values(
        entity="job_deletion", entity_id=f"deleted:{job.job_id}", from_status=job.status, to_status="DELETED",
        detail={"by": who.user_id, "merchant_id": who.merchant_id}))
    await add_to_outbox(conn, ctx.tables.outbox, JobDeleted(deleted_by=who.user_id), job_id=job.job_id,
                        merchant_id=who.merchant_id, producer="gateway", traceparent=None)


def periodic(ctx: ServiceContext) -> list[Periodic]:
    settings = RetentionSettings()

    async def cleanup() -> None:
        await disk_state_now(ctx, settings.limits)
        await purge_expired_files(ctx, settings.file_retention_days)

    return [Periodic("file retention cleanup", settings.cleanup_interval_seconds, cleanup)]

