"""The caller of a request, from its bearer token (checked before anything else is read), and the
caller's own jobs."""

import sqlalchemy as sa
from fastapi import HTTPException
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_gateway.tables import jobs
from skuflow_platform.access import UPLOADERS, caller
from skuflow_platform.runtime import ServiceContext


def caller_dependency(ctx: ServiceContext, *roles: str):
    return caller(ctx.settings.jwt_secret, *(roles or UPLOADERS))


async def own_job(ctx: ServiceContext, job_id: str, merchant_id: str) -> sa.Row:
    """The caller's job. Another merchant's job is indistinguishable from a missing one (no
    existence leak)."""
    async with ctx.db.transaction() as conn:
        return await own_job_in(conn, job_id, merchant_id)


async def own_job_in(conn: AsyncConnection, job_id: str, merchant_id: str) -> sa.Row:
    """``own_job`` in a transaction the request reads more from (one round of BEGIN and COMMIT, not two)."""
    row = (await conn.execute(sa.select(jobs).where(
        (jobs.c.job_id == job_id) & (jobs.c.merchant_id == merchant_id)))).first()
    if row is None:
        raise HTTPException(404, f"job {job_id} not found")
    return row
