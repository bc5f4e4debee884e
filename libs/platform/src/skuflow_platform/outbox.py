"""Transactional outbox: events are rows written with the state change, relayed after commit.

A crash between commit and publish loses nothing: the row stays unpublished and the relay (of
this replica or another) sends it on its next pass. Delivery is at-least-once; consumers dedupe
by ``event_id`` in their inbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import sqlalchemy as sa
from faststream.kafka import KafkaBroker
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_contracts.codec import encode, envelope_for
from skuflow_contracts.envelope import EventEnvelope
from skuflow_platform.db import Database
from skuflow_platform.faults import Health
from skuflow_platform.metrics import OUTBOX_PENDING, OUTBOX_PUBLISHED

log = logging.getLogger(__name__)


def outbox_row(payload: BaseModel, *, job_id: str, merchant_id: str, producer: str, traceparent: str | None,
               key: str | None = None) -> tuple[dict, EventEnvelope]:
    """The outbox row of one event and its envelope. ``key`` defaults to the job id, which keeps a
    job's events in order on one partition."""
    spec, envelope = envelope_for(payload, job_id=job_id, merchant_id=merchant_id, producer=producer,
                                  traceparent=traceparent)
    return {"event_id": envelope.event_id, "topic": spec.topic.name, "message_key": key or job_id,
            "body": encode(envelope), "traceparent": traceparent}, envelope


async def add_to_outbox(conn: AsyncConnection, outbox: sa.Table, payload: BaseModel, *, job_id: str,
                        merchant_id: str, producer: str, traceparent: str | None,
                        key: str | None = None) -> EventEnvelope:
    """One event written now, in ``conn``'s transaction (HTTP routes and clocks; handlers emit through
    their unit of work, which writes all its events in one statement)."""
    row, envelope = outbox_row(payload, job_id=job_id, merchant_id=merchant_id, producer=producer,
                               traceparent=traceparent, key=key)
    await conn.execute(outbox.insert().values(**row))
    return envelope


class OutboxRelay:
    """Publishes unpublished outbox rows in id order; woken after each commit, polls otherwise."""

    def __init__(self, db: Database, outbox: sa.Table, broker: KafkaBroker, *, poll_seconds: float,
                 health: Health, batch_size: int = 200) -> None:
        self.db, self.outbox, self.broker, self.health = db, outbox, broker, health
        self.poll_seconds, self.batch_size = poll_seconds, batch_size
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None

    def wake(self) -> None:
        self._wake.set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="outbox-relay")

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            try:
                relayed = await self.relay_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("outbox relay pass failed; waiting for the infrastructure", exc_info=True)
                await self.health.wait_until_healthy("outbox relay")
                relayed = 0
            if relayed < self.batch_size:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=self.poll_seconds)

    async def relay_once(self) -> int:
        """Publish one batch; rows are locked so two replicas never send the same row at once."""
        o = self.outbox
        async with self.db.transaction() as conn:
            rows = (await conn.execute(
                sa.select(o.c.id, o.c.topic, o.c.message_key, o.c.body, o.c.traceparent)
                .where(o.c.published_at.is_(None)).order_by(o.c.id).limit(self.batch_size)
                .with_for_update(skip_locked=True)
            )).all()
            OUTBOX_PENDING.set(len(rows))
            # handed to the producer in id order without waiting for each acknowledgement (aiokafka keeps
            # the order within a partition, so a job's events stay in order), then awaited together: one
            # round trip to the broker per pass instead of one per row; any failure marks nothing published
            sent = [await self.broker.publish(row.body, topic=row.topic, key=row.message_key.encode(),
                                              headers={"traceparent": row.traceparent} if row.traceparent else {},
                                              no_confirm=True) for row in rows]
            await asyncio.gather(*sent)
            for row in rows:
                OUTBOX_PUBLISHED.labels(row.topic).inc()
            if rows:
                await conn.execute(o.update().where(o.c.id.in_([r.id for r in rows]))
                                   .values(published_at=sa.func.now()))
        return len(rows)
