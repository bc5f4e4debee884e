"""Circuit breaker per model (seed-002 §6): the state machine is pure; the state lives in a shared store.

CLOSED → OPEN after ``failure_threshold`` consecutive failures; OPEN → HALF_OPEN on the first request
after ``recovery_timeout_sec``, and that request is the first probe (C1); HALF_OPEN → CLOSED after
``half_open_success_threshold`` successes; HALF_OPEN → OPEN when the probes fail or when no decision is
reached within ``half_open_timeout_sec`` (C3).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import TYPE_CHECKING

from skuflow_llm.clock import Clock
from skuflow_llm.observability import metrics

if TYPE_CHECKING:
    from skuflow_llm.state import StateStore

log = logging.getLogger(__name__)


class CircuitState(IntEnum):
    CLOSED = 0
    HALF_OPEN = 1
    OPEN = 2


@dataclass(frozen=True)
class BreakerState:
    state: CircuitState = CircuitState.CLOSED
    failure_count: int = 0
    open_since: float = 0.0
    half_open_calls: int = 0
    half_open_success: int = 0
    half_open_since: float = 0.0


@dataclass(frozen=True)
class BreakerPolicy:
    failure_threshold: int = 5
    recovery_timeout_sec: float = 60
    half_open_max_calls: int = 3
    half_open_success_threshold: int = 2
    half_open_timeout_sec: float = 30

    def admit(self, s: BreakerState, now: float) -> tuple[BreakerState, bool]:
        if s.state is CircuitState.CLOSED:
            return s, True
        if s.state is CircuitState.OPEN:
            if now - s.open_since >= self.recovery_timeout_sec:
                return replace(s, state=CircuitState.HALF_OPEN, half_open_calls=1, half_open_success=0,
                               half_open_since=now), True
            return s, False
        if now - s.half_open_since >= self.half_open_timeout_sec:
            return self._open(s, now), False
        if s.half_open_calls < self.half_open_max_calls:
            return replace(s, half_open_calls=s.half_open_calls + 1), True
        return s, False

    def on_success(self, s: BreakerState, now: float) -> BreakerState:
        if s.state is CircuitState.HALF_OPEN:
            successes = s.half_open_success + 1
            if successes >= self.half_open_success_threshold:
                return BreakerState()
            return replace(s, half_open_success=successes)
        if s.state is CircuitState.CLOSED:
            return replace(s, failure_count=0)
        return s

    def on_failure(self, s: BreakerState, now: float) -> BreakerState:
        if s.state is CircuitState.HALF_OPEN:
            if s.half_open_calls >= self.half_open_max_calls and s.half_open_success < self.half_open_success_threshold:
                return self._open(s, now)
            return s
        if s.state is CircuitState.CLOSED:
            failures = s.failure_count + 1
            if failures >= self.failure_threshold:
                return replace(s, state=CircuitState.OPEN, failure_count=failures, open_since=now)
            return replace(s, failure_count=failures)
        return s

    @staticmethod
    def _open(s: BreakerState, now: float) -> BreakerState:
        return replace(s, state=CircuitState.OPEN, open_since=now, half_open_calls=0, half_open_success=0)


class CircuitBreaker:
    """One model's breaker. A CLOSED state seen less than 3 s ago admits without asking the store."""

    LOCAL_CACHE_TTL = 3.0

    def __init__(self, model: str, store: StateStore, policy: BreakerPolicy, clock: Clock) -> None:
        self.model = model
        self._store = store
        self._policy = policy
        self._clock = clock
        self._known = CircuitState.CLOSED
        self._known_at = float("-inf")

    async def allow_request(self) -> bool:
        now = self._clock.now()
        if self._known is CircuitState.CLOSED and now - self._known_at < self.LOCAL_CACHE_TTL:
            return True
        return await self._store.update_breaker(self.model, lambda s: self._step(s, *self._policy.admit(s, now)))

    async def record_success(self) -> CircuitState:
        now = self._clock.now()
        return await self._store.update_breaker(self.model, lambda s: self._step(s, self._policy.on_success(s, now)))

    async def record_failure(self) -> CircuitState:
        now = self._clock.now()
        return await self._store.update_breaker(self.model, lambda s: self._step(s, self._policy.on_failure(s, now)))

    async def state(self) -> BreakerState:
        return await self._store.update_breaker(self.model, lambda s: (s, s))

    def _step(self, old: BreakerState, new: BreakerState, outcome: object = None) -> tuple[BreakerState, object]:
        """Remember and report the state a store transition produced; ``outcome`` defaults to the new state."""
        self._known, self._known_at = new.state, self._clock.now()
        metrics.CIRCUIT_STATE.labels(self.model).set(int(new.state))
        if new.state != old.state:
            if new.state is CircuitState.OPEN:
                log.error("circuit_opened", extra={"fields": {"model": self.model, "from": old.state.name}})
            elif new.state is CircuitState.CLOSED:
                log.info("circuit_closed", extra={"fields": {"model": self.model}})
        return new, new.state if outcome is None else outcome


class CircuitBreakers:
    """The breakers of all models, created on first use and sharing one store."""

    def __init__(self, store: StateStore, policy: BreakerPolicy, clock: Clock) -> None:
        self._store, self._policy, self._clock = store, policy, clock
        self._breakers: dict[str, CircuitBreaker] = {}

    def __getitem__(self, model: str) -> CircuitBreaker:
        if model not in self._breakers:
            self._breakers[model] = CircuitBreaker(model, self._store, self._policy, self._clock)
        return self._breakers[model]
