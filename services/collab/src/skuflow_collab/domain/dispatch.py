"""Smart dispatch (seed-001a §7.28): who should take a task, from 30 days of their finished work.

Hard tasks (the machine's page confidence below 0.5) go only to annotators at least 0.85 accurate;
among the eligible, score = 0.6 × accuracy + 0.4 × (1 − open tasks / 10). Accuracy is the share of
finished tasks never reverted; without history an annotator counts as 0.8 accurate, 300 s a task.
"""

from __future__ import annotations

from dataclasses import dataclass

HARD = 0.5
HARD_ACCURACY = 0.85
MAX_LOAD = 10


@dataclass(frozen=True)
class Profile:
    annotator: str
    total_tasks: int = 0
    accuracy: float = 0.8
    avg_duration_sec: float = 300.0
    open_tasks: int = 0


def profile_of(annotator: str, finished: int, reworked: int, seconds: float, open_tasks: int) -> Profile:
    """A profile from counts; the cold-start defaults until the annotator has finished a task."""
    if finished == 0:
        return Profile(annotator, open_tasks=open_tasks)
    return Profile(annotator, finished, (finished - reworked) / finished, seconds / finished, open_tasks)


def eligible(profile: Profile, difficulty: float) -> bool:
    return difficulty >= HARD or profile.accuracy >= HARD_ACCURACY


def score(profile: Profile) -> float:
    return round(0.6 * profile.accuracy + 0.4 * (1 - min(profile.open_tasks, MAX_LOAD) / MAX_LOAD), 4)


def assign(difficulty: float, profiles: list[Profile]) -> str | None:
    """The annotator to give the task to, or None (it stays in the public queue)."""
    ranked = sorted((p for p in profiles if eligible(p, difficulty)), key=lambda p: (-score(p), p.annotator))
    return ranked[0].annotator if ranked else None
