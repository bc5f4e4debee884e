"""State in Postgres, the one store all replicas share (no Redis in this stack).

Breakers change under a row lock (``SELECT … FOR UPDATE``) so the pure state machine runs once per
transition; a rate window is counted by one conditional upsert; budget amounts are added by one upsert.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import date
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine

from skuflow_llm.breaker import BreakerState, CircuitState
from skuflow_llm.errors import StateStoreUnavailable
from skuflow_llm.limiter import RateLimit
from skuflow_llm.state import BreakerChange, T
from skuflow_llm.tables import SCHEMA, budget_spend, circuit_breakers, rate_windows
from skuflow_platform.db import migrate

MIGRATIONS = Path(__file__).parent.parent / "migrations"
BREAKER_FIELDS = ("failure_count", "open_since", "half_open_calls", "half_open_success", "half_open_since")
UNREACHABLE = (sa.exc.OperationalError, sa.exc.InterfaceError, OSError, TimeoutError)

COUNT_CALL = sa.text(f"""
    INSERT INTO {SCHEMA}.rate_windows AS w (model, minute, requests, tokens)
    SELECT :model, :minute, 1, :tokens WHERE 1 <= :qpm AND :tokens <= :tpm
    ON CONFLICT (model, minute) DO UPDATE SET requests = w.requests + 1, tokens = w.tokens + EXCLUDED.tokens
    WHERE w.requests + 1 <= :qpm AND w.tokens + EXCLUDED.tokens <= :tpm
    RETURNING w.requests""")


def migrate_state(database_url: str) -> None:
    """Create or upgrade the ``llm`` schema (idempotent, safe when replicas race)."""
    migrate(database_url, SCHEMA, MIGRATIONS)


class PostgresState:
    """The shared store. Its schema is created or upgraded on first use, not when a service is built: a
    service is built before it waits out an absent Postgres, and a store that cannot be reached is one
    ``FallbackState`` answers for locally until it can."""

    def __init__(self, database_url: str, *, connect_timeout_sec: int = 2) -> None:
        self._url = database_url
        self._engine = create_async_engine(database_url, pool_size=5, pool_pre_ping=True,
                                           connect_args={"connect_timeout": connect_timeout_sec})
        self._cleaned_minute: int | None = None
        self._migrated = False
        self._migrating = asyncio.Lock()

    async def _ensure_schema(self) -> None:
        async with self._migrating:
            if not self._migrated:
                async with self._engine.connect():  # unreachable: fails within the connect timeout, not the OS's
                    pass
                await asyncio.to_thread(migrate_state, self._url)
                self._migrated = True

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[AsyncConnection]:
        try:
            if not self._migrated:
                await self._ensure_schema()
            async with self._engine.begin() as conn:
                yield conn
        except UNREACHABLE as exc:
            raise StateStoreUnavailable(str(exc).splitlines()[0][:200]) from exc

    async def update_breaker(self, model: str, change: BreakerChange[T]) -> T:
        async with self._transaction() as conn:
            await conn.execute(insert(circuit_breakers).values(model=model).on_conflict_do_nothing())
            row = (await conn.execute(sa.select(circuit_breakers).where(circuit_breakers.c.model == model)
                                      .with_for_update())).one()
            old = BreakerState(CircuitState(row.state), *(getattr(row, name) for name in BREAKER_FIELDS))
            new, outcome = change(old)
            if new != old:
                await conn.execute(circuit_breakers.update().where(circuit_breakers.c.model == model).values(
                    state=int(new.state), updated_at=sa.func.now(),
                    **{name: getattr(new, name) for name in BREAKER_FIELDS}))
        return outcome

    async def count_call(self, model: str, minute: int, limit: RateLimit, tokens: int) -> bool:
        async with self._transaction() as conn:
            counted = (await conn.execute(COUNT_CALL, {"model": model, "minute": minute, "tokens": tokens,
                                                       "qpm": limit.qpm, "tpm": limit.tpm})).first()
            if self._cleaned_minute != minute:
                await conn.execute(rate_windows.delete().where(rate_windows.c.minute < minute - 1))
                self._cleaned_minute = minute
        return counted is not None

    async def window(self, model: str, minute: int) -> tuple[int, int]:
        async with self._transaction() as conn:
            row = (await conn.execute(sa.select(rate_windows.c.requests, rate_windows.c.tokens).where(
                rate_windows.c.model == model, rate_windows.c.minute == minute))).first()
        return (row.requests, row.tokens) if row else (0, 0)

    async def spent(self, day: date, scopes: Sequence[str]) -> dict[str, int]:
        async with self._transaction() as conn:
            rows = await conn.execute(sa.select(budget_spend.c.scope, budget_spend.c.spent_micro).where(
                budget_spend.c.day == day, budget_spend.c.scope.in_(scopes)))
            return {row.scope: row.spent_micro for row in rows}

    async def add_spend(self, day: date, amounts: Mapping[str, int]) -> None:
        statement = insert(budget_spend).values(
            [{"day": day, "scope": scope, "spent_micro": micro} for scope, micro in amounts.items()])
        statement = statement.on_conflict_do_update(
            index_elements=["day", "scope"],
            set_={"spent_micro": budget_spend.c.spent_micro + statement.excluded.spent_micro})
        async with self._transaction() as conn:
            await conn.execute(statement)

    async def close(self) -> None:
        await self._engine.dispose()
