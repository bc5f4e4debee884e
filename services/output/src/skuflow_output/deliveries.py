"""Delivered SKUs as rows whose status moves only through the SKU table (domain/skus.py), many at a
time (a page's SKUs move together), each move audited."""

from __future__ import annotations

from collections import defaultdict

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_output.domain.skus import SKU
from skuflow_output.tables import deliveries, platform


async def deliver_skus(conn: AsyncConnection, job_id: str, page: int, revision: int, sku_ids: list[str]) -> list[str]:
    """Record the page's valid SKUs as delivered; returns those not delivered before (a redelivered
    page delivers nothing twice)."""
    if not sku_ids:
        return []
    status = SKU.fire(None, "deliver")
    new = list((await conn.execute(pg_insert(deliveries).values([
        {"job_id": job_id, "sku_id": sku_id, "page": page, "revision": revision, "status": status}
        for sku_id in sku_ids]).on_conflict_do_nothing().returning(deliveries.c.sku_id))).scalars())
    if new:
        await conn.execute(platform.state_transitions.insert(), [
            {"entity": "sku", "entity_id": _audit_id(job_id, revision, sku_id), "from_status": None,
             "to_status": status, "detail": {"trigger": "deliver"}} for sku_id in new])
    return new


async def move_skus(conn: AsyncConnection, trigger: str, *where: sa.ColumnElement[bool]) -> list[sa.Row]:
    """Fire ``trigger`` on every delivered SKU matching ``where`` that may make the move; returns
    those moved (job_id, sku_id, revision, page, and their status before)."""
    found = (await conn.execute(sa.select(deliveries.c.job_id, deliveries.c.sku_id, deliveries.c.revision,
                                          deliveries.c.page, deliveries.c.status).where(
        *where, deliveries.c.status.in_(SKU.sources(trigger))).with_for_update())).all()
    by_target = defaultdict(list)
    for row in found:
        by_target[SKU.fire(row.status, trigger)].append(row)
    for target, rows in by_target.items():
        await conn.execute(deliveries.update().where(
            sa.tuple_(deliveries.c.job_id, deliveries.c.sku_id, deliveries.c.revision).in_(
                [(r.job_id, r.sku_id, r.revision) for r in rows])).values(status=target))
        await conn.execute(platform.state_transitions.insert(), [
            {"entity": "sku", "entity_id": _audit_id(r.job_id, r.revision, r.sku_id), "from_status": r.status,
             "to_status": target, "detail": {"trigger": trigger}} for r in rows])
    return found


def _audit_id(job_id: str, revision: int, sku_id: str) -> str:
    return f"{job_id}/r{revision}/{sku_id}"


def of_page(job_id: str, page: int, revision: int) -> tuple[sa.ColumnElement[bool], ...]:
    return (deliveries.c.job_id == job_id, deliveries.c.page == page, deliveries.c.revision == revision)
