"""Daily spending limits, global and per merchant, in integer micro-USD (seed-002 §11, C6/C14).

A call reserves its estimated cost before it is made, then commits the actual cost (the difference is
charged or refunded) or rolls the reservation back when it fails. Days are UTC days.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

from skuflow_llm.clock import Clock
from skuflow_llm.observability import metrics

if TYPE_CHECKING:
    from skuflow_llm.state import StateStore

MICRO = 1_000_000
DAILY_SCOPE = "daily"


def to_micro(usd: float) -> int:
    """Rounded, not truncated: int(0.29 * 1e6) would be 289999."""
    return round(usd * MICRO)


def to_usd(micro: int) -> float:
    return micro / MICRO


def merchant_scope(merchant_id: str) -> str:
    return f"merchant:{merchant_id}"


@dataclass(frozen=True)
class BudgetCheckResult:
    ok: bool
    remaining: float
    daily_used: float
    merchant_used: float | None


@dataclass(frozen=True)
class ReservationToken:
    """What was reserved, where and on which day: a commit after midnight settles the same day."""

    merchant_id: str | None
    est_cost_micro: int
    day: date
    scopes: tuple[str, ...]


class TokenBudgetGuard:
    def __init__(self, store: StateStore, *, daily_usd: float, per_merchant_usd: float, clock: Clock) -> None:
        self._store = store
        self.daily_micro = to_micro(daily_usd)
        metrics.DAILY_BUDGET_USD.set(daily_usd)
        self.per_merchant_micro = to_micro(per_merchant_usd)
        self._clock = clock
        self._last_spent = (self.today(), 0.0)  # the day's spend as last read from the store
        metrics.COST_USD_DAILY.set_function(self._spent_today)

    def _spent_today(self) -> float:
        """Read at each scrape: after midnight (UTC) yesterday's figure is not today's spend."""
        day, usd = self._last_spent
        return usd if day == self.today() else 0.0

    def today(self) -> date:
        return datetime.fromtimestamp(self._clock.now(), UTC).date()

    @staticmethod
    def scopes(merchant_id: str | None) -> tuple[str, ...]:
        return (DAILY_SCOPE, merchant_scope(merchant_id)) if merchant_id else (DAILY_SCOPE,)

    async def check(self, merchant_id: str | None) -> BudgetCheckResult:
        spent = await self._store.spent(self.today(), self.scopes(merchant_id))
        daily = spent.get(DAILY_SCOPE, 0)
        merchant = spent.get(merchant_scope(merchant_id), 0) if merchant_id else None
        self._last_spent = (self.today(), to_usd(daily))
        ok = daily < self.daily_micro and (merchant is None or merchant < self.per_merchant_micro)
        return BudgetCheckResult(ok=ok, remaining=to_usd(self.daily_micro - daily), daily_used=to_usd(daily),
                                 merchant_used=None if merchant is None else to_usd(merchant))

    async def reserve(self, merchant_id: str | None, est_cost_usd: float) -> ReservationToken:
        token = ReservationToken(merchant_id, to_micro(est_cost_usd), self.today(), self.scopes(merchant_id))
        await self._charge(token, token.est_cost_micro)
        return token

    async def commit(self, token: ReservationToken, actual_cost_usd: float) -> None:
        await self._charge(token, to_micro(actual_cost_usd) - token.est_cost_micro)

    async def rollback(self, token: ReservationToken) -> None:
        await self._charge(token, -token.est_cost_micro)

    async def _charge(self, token: ReservationToken, micro: int) -> None:
        if micro:
            await self._store.add_spend(token.day, dict.fromkeys(token.scopes, micro))
