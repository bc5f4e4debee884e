"""Telling an outage from a poison message.

A handler that fails while Postgres or Kafka is unreachable would fail for any message, so the
message is not to blame: the consumer waits the outage out (no attempt counted, nothing
dead-lettered, no offset committed) and tries again. Only a message that fails while both are
healthy counts towards the retries that end in the dead-letter topic. A service that starts during
an outage waits it out the same way (``when_reachable``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

Probe = Callable[[], Awaitable[bool]]


def outage_types() -> tuple[type[BaseException], ...]:
    """Exception types that say 'the infrastructure is not there' rather than 'this input is bad'."""
    from aiokafka.errors import KafkaConnectionError, KafkaTimeoutError, NodeNotReadyError, RequestTimedOutError
    from sqlalchemy.exc import InterfaceError, OperationalError
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    return (ConnectionError, TimeoutError, OperationalError, InterfaceError, PoolTimeout,
            KafkaConnectionError, KafkaTimeoutError, NodeNotReadyError, RequestTimedOutError)


@dataclass
class Backoff:
    """Capped exponential delays: 0.5 s, 1 s, 2 s, … up to ``cap`` seconds."""

    first: float = 0.5
    cap: float = 30.0

    def delay(self, attempt: int) -> float:
        return min(self.cap, self.first * 2 ** max(0, attempt - 1))


async def when_reachable(what: str, start: Callable[[], Awaitable[None]], patience: float,
                         backoff: Backoff | None = None) -> None:
    """``start`` (migrations, the broker's first connection) tried again while the infrastructure is
    not there, for up to ``patience`` seconds: a service started during a Postgres or Kafka outage (a
    restart after a crash) waits it out instead of exiting. Any other error, or an outage that
    outlasts the patience, is raised."""
    backoff = backoff or Backoff()
    deadline = time.monotonic() + patience
    attempt = 0
    while True:
        try:
            await start()
            if attempt:
                log.warning("infrastructure back; starting", extra={"fields": {"what": what}})
            return
        except outage_types() as exc:
            attempt += 1
            if time.monotonic() + backoff.delay(attempt) > deadline:
                raise
            if attempt == 1:
                log.error("infrastructure unreachable at start; waiting",
                          extra={"fields": {"what": what, "error": str(exc)[:200]}})
            await asyncio.sleep(backoff.delay(attempt))


@dataclass
class Health:
    """What this process knows about its infrastructure; ``/readyz`` reports it."""

    probes: dict[str, Probe]
    backoff: Backoff = field(default_factory=Backoff)
    waiting: set[str] = field(default_factory=set)  # consumers currently waiting out an outage

    async def check(self) -> dict[str, bool]:
        results = await asyncio.gather(*(probe() for probe in self.probes.values()), return_exceptions=True)
        return {name: result is True for name, result in zip(self.probes, results, strict=True)}

    async def healthy(self) -> bool:
        return all((await self.check()).values())

    async def wait_until_healthy(self, who: str) -> None:
        """Block ``who`` (a consumer, the relay) until every probe answers; logs once per outage."""
        attempt = 0
        self.waiting.add(who)
        try:
            while True:
                state = await self.check()
                if all(state.values()):
                    if attempt:
                        log.warning("infrastructure back; resuming", extra={"fields": {"who": who}})
                    return
                attempt += 1
                if attempt == 1:
                    log.error("infrastructure unreachable; waiting", extra={"fields": {"who": who, **state}})
                await asyncio.sleep(self.backoff.delay(attempt))
        finally:
            self.waiting.discard(who)
