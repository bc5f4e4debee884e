"""Few-shot examples from confirmed annotations (C13): only quality ≥ 0.85, best three.

The annotation store arrives with the collab service; until then any ``FewShotSource`` can supply them.
The engine applies the quality rule itself, so a source cannot slip a weak example in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class FewShotExample:
    input: str
    output: dict[str, Any]
    quality_score: float
    category: str | None = None
    confirmed: bool = True


class FewShotSource(Protocol):
    async def examples(self, task_type: str, category: str | None, *, min_quality: float,
                       limit: int) -> Sequence[FewShotExample]: ...


class NoFewShots:
    async def examples(self, task_type: str, category: str | None, *, min_quality: float,
                       limit: int) -> Sequence[FewShotExample]:
        return ()


class StaticFewShots:
    """Examples held in memory, keyed by task type (tests, or a curated file)."""

    def __init__(self, by_task: dict[str, list[FewShotExample]]) -> None:
        self.by_task = by_task

    async def examples(self, task_type: str, category: str | None, *, min_quality: float,
                       limit: int) -> Sequence[FewShotExample]:
        return [e for e in self.by_task.get(task_type, []) if category is None or e.category == category]


def best_examples(examples: Sequence[FewShotExample], *, min_quality: float, limit: int) -> list[FewShotExample]:
    usable = [e for e in examples if e.confirmed and e.quality_score >= min_quality]
    return sorted(usable, key=lambda e: e.quality_score, reverse=True)[:limit]
