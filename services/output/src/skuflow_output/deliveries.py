"""Delivered SKUs as rows whose status moves only through the SKU table (domain/skus.py), many at a
time (a page's SKUs move together), each move audited."""

from __future__ import annotations

from collections import defaultdict

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_output.domain.skus import SKU, SUPERSEDED
from skuflow_output.tables import deliveries, platform


async def deliver_skus(conn: AsyncConnection, job_id: str, page: int, revision: int,
                       contents: dict[str, str]) -> list[str]:
    """Record the page's valid SKUs (``contents``: sku_id → content key) as delivered at ``revision``;
    returns those not delivered before (a redelivered page delivers nothing twice)."""
    if not contents:
        return []
    status = SKU.fire(None, "deliver")
    new = list((await conn.execute(pg_insert(deliveries).values([
        {"job_id": job_id, "sku_id": sku_id, "page": page, "revision": revision, "status": status,
         "content_key": key} for sku_id, key in contents.items()]).on_conflict_do_nothing().returning(
        deliveries.c.sku_id))).scalars())
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


async def live_deliveries(conn: AsyncConnection, job_id: str, page: int) -> dict[str, sa.Row]:
    """The page's SKUs as downstream holds them now (not superseded), by sku_id: revision and content key."""
    rows = (await conn.execute(sa.select(deliveries.c.sku_id, deliveries.c.revision, deliveries.c.content_key).where(
        *live_on(job_id, page)))).all()
    return {row.sku_id: row for row in rows}


def live_on(job_id: str, page: int) -> tuple[sa.ColumnElement[bool], ...]:
    """The page's deliveries that are not superseded: what a page import sends and moves."""
    return deliveries.c.job_id == job_id, deliveries.c.page == page, deliveries.c.status != SUPERSEDED
