"""Time as the adapter sees it: injectable, so breaker recovery and minute windows are tested without waiting."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

Sleep = Callable[[float], Awaitable[None]]


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (wall time: shared with other replicas through the database)."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()


class ManualClock:
    """A clock that moves only when told to; ``sleep`` advances it instead of waiting."""

    def __init__(self, start: float = 1_767_225_600.0) -> None:  # 2026-01-01T00:00:00Z
        self.current = start
        self.slept: list[float] = []

    def now(self) -> float:
        return self.current

    def advance(self, seconds: float) -> None:
        self.current += seconds

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.advance(seconds)


system_sleep: Sleep = asyncio.sleep
