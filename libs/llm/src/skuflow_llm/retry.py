"""Layered retries (seed-002 §4.2) and the per-page call cap that bounds them (C10).

The parse retry (outer) repeats the whole API retry (inner) when an answer cannot be read; the API retry
repeats the primary-then-fallback call on provider failures. The seed's API retry never fired (its
errors were converted before it saw them); here provider failures reach it. Every provider request,
including those inside the retry loops, spends one of the page's calls.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from skuflow_llm.clock import Sleep
from skuflow_llm.errors import LLMCallLimitError
from skuflow_llm.observability import metrics

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """``retries`` more attempts after the first, for the exception types in ``retry_on`` only."""

    name: str
    retries: int
    retry_on: tuple[type[BaseException], ...]
    delay: Callable[[int], float]
    sleep: Sleep

    async def run(self, attempt: Callable[[], Awaitable[T]]) -> T:
        for number in range(self.retries + 1):
            try:
                return await attempt()
            except self.retry_on as exc:
                if number == self.retries:
                    raise
                pause = self.delay(number)
                log.warning(self.name, extra={"fields": {"attempt": number + 1, "error": str(exc)[:200],
                                                         "delay_sec": round(pause, 3)}})
                await self.sleep(pause)
        raise AssertionError("unreachable")


def exponential_delay(base: float, ceiling: float, jitter: float = 0.5, floor: float = 0.1,
                      rng: random.Random | None = None) -> Callable[[int], float]:
    """min(base·2ⁿ, ceiling) ± jitter·delay, never below ``floor`` (API retry)."""
    uniform = (rng or random.Random()).uniform

    def delay(attempt: int) -> float:
        pause = min(base * 2**attempt, ceiling)
        return max(floor, pause + uniform(-jitter, jitter) * pause)

    return delay


def linear_delay(base: float) -> Callable[[int], float]:
    """base·(n+1) (parse retry)."""
    return lambda attempt: base * (attempt + 1)


class PageCallAllowance:
    """The calls a page may still make. The caller passes how many it used; the adapter reports what it adds."""

    def __init__(self, limit: int, used_before: int) -> None:
        self.limit = limit
        self.used_before = used_before
        self.made = 0
        self.ensure_available()

    def ensure_available(self) -> None:
        if self.used_before + self.made >= self.limit:
            metrics.CALL_LIMIT.inc()
            raise LLMCallLimitError(f"Page call limit ({self.limit}) exceeded", "PAGE_CALL_LIMIT",
                                    {"used": self.used_before + self.made})

    def spend(self) -> None:
        self.ensure_available()
        self.made += 1
