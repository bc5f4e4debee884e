"""State kept in this process: the default without a database, and the fallback while it is unreachable."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import date

from skuflow_llm.breaker import BreakerState
from skuflow_llm.limiter import RateLimit
from skuflow_llm.state import BreakerChange, T


class LocalState:
    def __init__(self) -> None:
        self.breakers: dict[str, BreakerState] = {}
        self.windows: dict[tuple[str, int], tuple[int, int]] = defaultdict(lambda: (0, 0))
        self.spend: dict[tuple[date, str], int] = defaultdict(int)

    async def update_breaker(self, model: str, change: BreakerChange[T]) -> T:
        self.breakers[model], outcome = change(self.breakers.get(model, BreakerState()))
        return outcome

    async def count_call(self, model: str, minute: int, limit: RateLimit, tokens: int) -> bool:
        requests, counted = self.windows[model, minute]
        if requests + 1 > limit.qpm or (tokens > 0 and counted + tokens > limit.tpm):
            return False
        self.windows[model, minute] = (requests + 1, counted + tokens)
        self._forget_windows_before(minute - 1)
        return True

    async def window(self, model: str, minute: int) -> tuple[int, int]:
        return self.windows.get((model, minute), (0, 0))

    async def spent(self, day: date, scopes: Sequence[str]) -> dict[str, int]:
        return {scope: self.spend[day, scope] for scope in scopes if (day, scope) in self.spend}

    async def add_spend(self, day: date, amounts: Mapping[str, int]) -> None:
        for scope, micro in amounts.items():
            self.spend[day, scope] += micro

    def _forget_windows_before(self, minute: int) -> None:
        for key in [key for key in self.windows if key[1] < minute]:
            del self.windows[key]
