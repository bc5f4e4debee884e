"""Requests and tokens per model per natural minute, shared by every replica (seed-002 §7, C8).

A call is counted only when both its request and its tokens fit: a rejected call leaves both counters as
they were. ``wait_or_degrade`` tries the model, then its fallback, then waits 1-3 s once for the model.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from skuflow_llm.clock import Clock, Sleep
from skuflow_llm.errors import LLMUnavailableError
from skuflow_llm.observability import metrics

if TYPE_CHECKING:
    from skuflow_llm.state import StateStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RateLimit:
    qpm: int
    tpm: int


UNKNOWN_MODEL_LIMIT = RateLimit(qpm=30, tpm=1_000_000)


def minute_of(epoch_seconds: float) -> int:
    return int(epoch_seconds) // 60


class GlobalRateLimiter:
    def __init__(self, store: StateStore, limits: Mapping[str, RateLimit], fallbacks: Mapping[str, str],
                 clock: Clock, sleep: Sleep, jitter: Callable[[float, float], float] = random.uniform) -> None:
        self._store = store
        self._limits = limits
        self._fallbacks = fallbacks
        self._clock = clock
        self._sleep = sleep
        self._jitter = jitter

    def limit_of(self, model: str) -> RateLimit:
        return self._limits.get(model, UNKNOWN_MODEL_LIMIT)

    async def acquire(self, model: str, estimated_tokens: int = 0) -> bool:
        minute = minute_of(self._clock.now())
        counted = await self._store.count_call(model, minute, self.limit_of(model), estimated_tokens)
        if not counted:
            metrics.RATE_LIMITED.labels(model).inc()
        return counted

    async def wait_or_degrade(self, model: str, estimated_tokens: int) -> str:
        """The model to call now: ``model`` itself, or its fallback when ``model`` is at its limit."""
        if await self.acquire(model, estimated_tokens):
            return model
        fallback = self._fallbacks.get(model)
        if fallback and await self.acquire(fallback, estimated_tokens):
            metrics.RATE_DOWNGRADE.labels(model, fallback).inc()
            log.warning("rate_limit_downgrade", extra={"fields": {"from_model": model, "to_model": fallback}})
            return fallback
        await self._sleep(self._jitter(1.0, 3.0))  # spread the retries of many waiting callers
        if await self.acquire(model, estimated_tokens):
            return model
        raise LLMUnavailableError("All models rate limited", "RATE_LIMITED", {"model": model})
