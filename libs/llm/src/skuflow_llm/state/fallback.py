"""Shared state while the database answers, this process's own while it does not (C4).

The local copy mirrors what the database last said, so a breaker that was OPEN stays OPEN during an
outage; when the database answers again its state wins (re-sync). Budget spent locally during an outage
is added to the shared ledger on the next successful write, so it is not lost.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import date

from skuflow_llm.breaker import BreakerState
from skuflow_llm.errors import StateStoreUnavailable
from skuflow_llm.limiter import RateLimit
from skuflow_llm.observability import metrics
from skuflow_llm.state import BreakerChange, StateStore, T
from skuflow_llm.state.local import LocalState

log = logging.getLogger(__name__)


class FallbackState:
    def __init__(self, shared: StateStore, local: LocalState | None = None) -> None:
        self.shared = shared
        self.local = local or LocalState()
        self._unsynced_spend: dict[tuple[date, str], int] = defaultdict(int)

    async def _either(self, component: str, use: Callable[[StateStore], Awaitable[T]]) -> tuple[T, bool]:
        """(result, whether the shared store gave it)."""
        try:
            return await use(self.shared), True
        except StateStoreUnavailable as exc:
            self._note_outage(component, exc)
            return await use(self.local), False

    @staticmethod
    def _note_outage(component: str, exc: StateStoreUnavailable) -> None:
        metrics.STATE_FALLBACK.labels(component).inc()
        log.warning("shared_state_unavailable", extra={"fields": {"component": component, "error": str(exc)}})

    async def update_breaker(self, model: str, change: BreakerChange[T]) -> T:
        def mirrored(state: BreakerState) -> tuple[BreakerState, T]:
            new, outcome = change(state)
            self.local.breakers[model] = new
            return new, outcome

        outcome, _ = await self._either("breaker", lambda store: store.update_breaker(model, mirrored))
        return outcome

    async def count_call(self, model: str, minute: int, limit: RateLimit, tokens: int) -> bool:
        counted, _ = await self._either("limiter", lambda store: store.count_call(model, minute, limit, tokens))
        return counted

    async def window(self, model: str, minute: int) -> tuple[int, int]:
        counts, _ = await self._either("limiter", lambda store: store.window(model, minute))
        return counts

    async def spent(self, day: date, scopes: Sequence[str]) -> dict[str, int]:
        totals, shared = await self._either("budget", lambda store: store.spent(day, scopes))
        if shared:
            for scope in scopes:
                self.local.spend[day, scope] = totals.get(scope, 0) + self._unsynced_spend.get((day, scope), 0)
        return totals

    async def add_spend(self, day: date, amounts: Mapping[str, int]) -> None:
        await self.local.add_spend(day, amounts)
        for scope, micro in amounts.items():
            self._unsynced_spend[day, scope] += micro
        for pending_day in sorted({d for d, _ in self._unsynced_spend}):
            pending = {scope: micro for (d, scope), micro in self._unsynced_spend.items() if d == pending_day}
            try:
                await self.shared.add_spend(pending_day, pending)
            except StateStoreUnavailable as exc:
                self._note_outage("budget", exc)
                return
            for scope in pending:
                del self._unsynced_spend[pending_day, scope]

    async def close(self) -> None:
        close = getattr(self.shared, "close", None)
        if close is not None:
            await close()
