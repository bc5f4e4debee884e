"""Where breaker, rate-window and budget state lives: this process, Postgres, or Postgres with a local fallback."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from skuflow_llm.breaker import BreakerState
    from skuflow_llm.limiter import RateLimit

T = TypeVar("T")
BreakerChange = Callable[["BreakerState"], tuple["BreakerState", T]]


class StateStore(Protocol):
    """Each method is atomic across every replica that shares the store."""

    async def update_breaker(self, model: str, change: BreakerChange[T]) -> T:
        """Apply ``change`` to the model's breaker state under a lock; store the new state, return the outcome."""
        ...

    async def count_call(self, model: str, minute: int, limit: RateLimit, tokens: int) -> bool:
        """Count one request and ``tokens`` in the minute's window if both fit the limit; count nothing if not."""
        ...

    async def window(self, model: str, minute: int) -> tuple[int, int]:
        """(requests, tokens) counted in the minute's window."""
        ...

    async def spent(self, day: date, scopes: Sequence[str]) -> dict[str, int]:
        ...

    async def add_spend(self, day: date, amounts: Mapping[str, int]) -> None:
        """Add (or, when negative, refund) micro-USD to each scope's total of the day."""
        ...
