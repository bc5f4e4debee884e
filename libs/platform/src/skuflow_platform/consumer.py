"""Consuming events: decode, dedupe (inbox), handle in one transaction, retry, dead-letter.

The order that keeps "nothing lost, nothing twice" true:
1. a message that breaks its contract goes straight to the DLQ (retrying cannot fix it);
2. each attempt runs in one DB transaction that first claims the event_id in the inbox, then
   changes state and writes outbox rows; a redelivered event finds its id and does nothing;
3. a failure while Postgres or Kafka is unreachable is an outage, not the message's fault: the
   consumer waits until both answer again (capped backoff, no attempt counted, nothing
   dead-lettered, offset not committed) and tries again;
4. after bounded retries on a healthy system the message goes to the DLQ *before* its offset is
   committed; if the DLQ write fails the consumer waits for the broker and writes it again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import sqlalchemy as sa
from faststream.kafka import KafkaBroker
from faststream.kafka.annotations import KafkaMessage
from faststream.middlewares import AckPolicy
from opentelemetry import trace
from pydantic import BaseModel
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_contracts.codec import ContractViolation, decode
from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.topics import (
    PAGE_BOUND,
    PAGE_CLASSIFIED,
    PAGE_EXTRACTED,
    PAGE_PARSE_REQUESTED,
    PAGE_PARSED,
    PROFILE_PUBLISHED,
    Topic,
)
from skuflow_platform.db import Database
from skuflow_platform.deadletter import DeadLetters
from skuflow_platform.faults import Backoff, Health
from skuflow_platform.logs import log_context
from skuflow_platform.metrics import EVENTS_CONSUMED, HANDLER_SECONDS
from skuflow_platform.offsets import OffsetCommits
from skuflow_platform.outbox import OutboxRelay, outbox_row
from skuflow_platform.tables import PlatformTables
from skuflow_platform.tracing import context_from, current_traceparent, event_attributes, tracer

log = logging.getLogger(__name__)


class PermanentError(Exception):
    """A failure that retrying cannot fix (e.g. an unreadable PDF): dead-letter at once."""


@dataclass
class UnitOfWork:
    """What a handler may touch: its transaction, the outbox and the audit trail.

    Events are kept until the handler returns and then written in one statement (``flush``), in the
    order emitted: a page that delivers twenty SKUs costs one round trip, not twenty."""

    conn: AsyncConnection
    envelope: EventEnvelope
    tables: PlatformTables
    producer: str
    pending: list[dict] = field(default_factory=list)

    def emit(self, payload: BaseModel, *, key: str | None = None, job_id: str | None = None) -> EventEnvelope:
        """``job_id`` only for an event about another job (merchant memory re-reads a later job's pages)."""
        row, envelope = outbox_row(payload, job_id=job_id or self.envelope.job_id,
                                   merchant_id=self.envelope.merchant_id, producer=self.producer,
                                   traceparent=current_traceparent(), key=key)
        self.pending.append(row)
        return envelope

    async def flush(self) -> None:
        if self.pending:
            await self.conn.execute(self.tables.outbox.insert(), self.pending)
            self.pending = []

    async def transition(self, entity: str, entity_id: str, from_status: str | None, to_status: str,
                         reason: str | None = None, detail: dict | None = None) -> None:
        await self.transitions(entity, [(entity_id, from_status, to_status, detail)], reason)

    async def transitions(self, entity: str, moves: list[tuple[str, str | None, str, dict | None]],
                          reason: str | None = None) -> None:
        """Audit rows of many moves in one statement: (entity_id, from, to, detail) each."""
        if moves:
            await self.conn.execute(self.tables.state_transitions.insert(), [
                {"entity": entity, "entity_id": entity_id, "from_status": before, "to_status": after,
                 "reason": reason, "event_id": self.envelope.event_id, "detail": detail}
                for entity_id, before, after, detail in moves])


Handler = Callable[[EventEnvelope, UnitOfWork], Awaitable[None]]


async def run_handler(handler: Handler, envelope: EventEnvelope, conn: AsyncConnection, tables: PlatformTables,
                      producer: str) -> int:
    """Run ``handler`` in ``conn``'s transaction and write the events it emitted; how many it emitted."""
    uow = UnitOfWork(conn, envelope, tables, producer)
    await handler(envelope, uow)
    emitted = len(uow.pending)
    await uow.flush()
    return emitted


async def claim_event(conn: AsyncConnection, inbox: sa.Table, event_id, topic: str) -> bool:
    """True the first time an event id is seen; False for a redelivery."""
    inserted = await conn.execute(
        pg_insert(inbox).values(event_id=event_id, topic=topic)
        .on_conflict_do_nothing().returning(inbox.c.event_id)
    )
    return inserted.first() is not None


# How long the broker may hold a fetch that finds nothing new. aiokafka keeps one fetch in flight per
# broker and leaves out of it a partition whose records are still being handled, so the next record
# of a job's partition waits for that fetch to come back: on the page stream this wait is paid at
# every hop (the default 500 ms made a page's parsed-to-bound latency ~1 s), elsewhere it only costs
# the idle polling of each service's consumer of its quiet topics, which a long wait makes cheap.
PAGE_STREAM = frozenset({PAGE_PARSE_REQUESTED, PAGE_PARSED, PAGE_CLASSIFIED, PAGE_EXTRACTED, PAGE_BOUND})
PAGE_STREAM_FETCH_WAIT_MS = 100
QUIET_FETCH_WAIT_MS = 2000


INBOXED = frozenset({"handled", "duplicate"})  # outcomes the inbox remembers: their offsets may be committed late


def consumer_group(service: str, topic: Topic) -> str:
    """A page-stream topic has a group of its own for each service that reads it, so a stage's replicas
    share its pages and its lag scales it (deploy/k8s). Profile notices have one too: an event naming a
    version not heard of yet waits for its notice (``profiles.NOTICE_WAIT``), and a notice queued behind
    that event on the same consumer could not arrive (a job created just after its profile was
    dead-lettered). Every other topic a service reads (job, task and review events: a few per job) shares
    the service's one ``events`` group: a group per quiet topic cost its fetches and heartbeats while
    nothing happened, about a sixth of the machine idle."""
    if topic in PAGE_STREAM:
        return f"skuflow-{service}.{topic.name.removeprefix('skuflow.')}"
    if topic == PROFILE_PUBLISHED:
        return f"skuflow-{service}.profiles"
    return f"skuflow-{service}.events"


class EventConsumer:
    def __init__(self, *, service: str, db: Database, tables: PlatformTables, relay: OutboxRelay,
                 dead_letters: DeadLetters, retries: int, backoff_seconds: float, health: Health,
                 offsets: OffsetCommits | None = None) -> None:
        self.service, self.db, self.tables, self.relay = service, db, tables, relay
        self.dead_letters, self.health = dead_letters, health
        self.retries, self.backoff = retries, Backoff(first=backoff_seconds)
        self.offsets = offsets or OffsetCommits()

    def subscribe(self, broker: KafkaBroker, subscriptions: list[tuple[Topic, Handler]]) -> None:
        """One Kafka consumer per group (``consumer_group``), handing each record to its topic's handler."""
        groups: dict[str, dict[str, Handler]] = {}
        waits: dict[str, int] = {}
        for topic, handler in subscriptions:
            group = consumer_group(self.service, topic)
            handlers = groups.setdefault(group, {})
            if topic.name in handlers:
                raise ValueError(f"{self.service} subscribes to {topic.name} twice")
            handlers[topic.name] = handler
            waits[group] = PAGE_STREAM_FETCH_WAIT_MS if topic in PAGE_STREAM else QUIET_FETCH_WAIT_MS
        for group, handlers in groups.items():
            self._consume(broker, group, handlers, waits[group])

    def _consume(self, broker: KafkaBroker, group: str, handlers: dict[str, Handler], wait_ms: int) -> None:
        subscriber = broker.subscriber(*handlers, group_id=group, ack_policy=AckPolicy.MANUAL,
                                       auto_offset_reset="earliest", fetch_max_wait_ms=wait_ms)

        async def on_message(message: KafkaMessage) -> None:
            record = message.raw_message
            try:
                outcome = await self.process(record.topic, message.body, record.key, handlers[record.topic])
            except BaseException:
                await message.nack()  # back to this record: nothing after it is committed before it is handled
                raise
            if outcome in INBOXED:
                self.offsets.handled(message.consumer, record)
            else:
                await self.offsets.handled_now(message.consumer, record)

        subscriber(on_message)

    async def process(self, topic: str, body: bytes, key: bytes | None, handler: Handler) -> str:
        """Handle one raw message; returns the outcome (handled / duplicate / dead_lettered)."""
        try:
            envelope = decode(topic, body)
        except ContractViolation as exc:
            await self._dead_letter(topic, body, key, exc, 1, None)
            EVENTS_CONSUMED.labels(topic, "dead_lettered").inc()
            return "dead_lettered"
        page = getattr(envelope.payload, "page", None)
        started = time.perf_counter()
        with log_context(job_id=envelope.job_id, page=page, event_id=str(envelope.event_id)), \
                tracer().start_as_current_span(f"consume {topic}", context=context_from(
                    envelope.traceparent), kind=trace.SpanKind.CONSUMER,
                    attributes=event_attributes(topic, envelope)) as span:
            outcome = await self._handle_with_retries(topic, body, key, envelope, handler)
            span.set_attribute("skuflow.outcome", outcome)
            log.info("event handled", extra={"fields": {"topic": topic, "outcome": outcome,
                                                        "ms": round((time.perf_counter() - started) * 1000)}})
        EVENTS_CONSUMED.labels(topic, outcome).inc()
        return outcome

    async def _handle_with_retries(self, topic: str, body: bytes, key: bytes | None,
                                   envelope: EventEnvelope, handler: Handler) -> str:
        attempts = 0
        while True:
            started = time.perf_counter()
            try:
                return await self._attempt(topic, envelope, handler)
            except Exception as exc:
                if not await self.health.healthy():
                    await self.health.wait_until_healthy(f"consumer {topic}")
                    continue  # an outage is nobody's fault: the attempt does not count
                attempts += 1
                retryable = not isinstance(exc, PermanentError | ContractViolation)
                log.warning("handler failed", exc_info=True,
                            extra={"fields": {"attempt": attempts, "retryable": retryable}})
                if retryable and attempts <= self.retries:
                    await asyncio.sleep(self.backoff.delay(attempts))
                    continue
                await self._dead_letter(topic, body, key, exc, attempts, envelope)
                return "dead_lettered"
            finally:
                HANDLER_SECONDS.labels(topic).observe(time.perf_counter() - started)

    async def _dead_letter(self, topic: str, body: bytes, key: bytes | None, error: Exception,
                           attempts: int, envelope: EventEnvelope | None) -> None:
        """Nothing is committed until the DLQ holds the message; a broker outage is waited out."""
        while True:
            try:
                await self.dead_letters.send(topic=topic, body=body, key=key, error=error,
                                             attempts=attempts, envelope=envelope)
                return
            except Exception:
                log.warning("dead-letter write failed; waiting for the broker", exc_info=True)
                await self.health.wait_until_healthy(f"dead-letter {topic}")
                await asyncio.sleep(self.backoff.delay(1))

    async def _attempt(self, topic: str, envelope: EventEnvelope, handler: Handler) -> str:
        async with self.db.transaction() as conn:
            if not await claim_event(conn, self.tables.processed_events, envelope.event_id, topic):
                return "duplicate"
            emitted = await run_handler(handler, envelope, conn, self.tables, self.service)
        if emitted:  # a pass of the relay is a transaction: none for a handler that sent nothing
            self.relay.wake()
        return "handled"
