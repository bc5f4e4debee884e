"""What a machine reading of a page does to the page's human tasks of its generation (issue 42).

Within a generation the machine reads a page again after a person corrected a page of the same
layout (a re-read: ``reading`` 1, 2, …; again without the lesson when that correction is reverted).
The newest reading speaks for the page as long as no person has had their say on it: a waiting task
starts from it, or is closed when it needs no person any more (the ``adapted`` move; nothing is
published, the reading reached output by itself). A task a person holds is closed the same way
when the reading needs no person (the workbench tells them why and offers the next page: the page
after a correction is the one the queue offers next, and is held before its re-read arrives);
otherwise it keeps the page they are correcting (their patch is checked against it), and only
remembers the reading, so that their review is numbered above it. A page a person reviewed, skipped
or had sent back for rework keeps its tasks as they are: a learned reading never overrides a person.
A reading no newer than one a task has heard of changes nothing (a redelivery, an older reading
arriving late).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Protocol, TypeVar

from skuflow_collab.domain.lifecycle import FINAL, PROCESSING
from skuflow_contracts.events import AdaptedFrom


class PageTask(Protocol):
    status: str
    reading: int  # the newest reading of the page the task has heard of
    rework_count: int
    superseded_by: int | None  # the machine reading that closed it: no person had their say


TaskT = TypeVar("TaskT", bound=PageTask)


class Step(Enum):
    NOTHING = "nothing"
    CREATE = "create"  # a new task, from this reading
    TAKE = "take"  # the waiting task starts from this reading
    CLOSE = "close"  # the waiting or held task is done: this reading needs no person
    REMEMBER = "remember"  # the held task's review is numbered above this reading


def had_a_person(task: PageTask) -> bool:
    """A person reviewed or skipped the page (or the SLA did it for one), or a team lead sent it back."""
    return task.rework_count > 0 or (task.status in FINAL and task.superseded_by is None)


def step(tasks: Sequence[TaskT], reading: int, needs_person: bool) -> tuple[Step, TaskT | None]:
    """The step a page's machine ``reading`` takes, given the page's tasks of its generation, and the
    task it takes it on."""
    if any(had_a_person(task) or task.reading >= reading for task in tasks):
        return Step.NOTHING, None
    waiting = next((task for task in tasks if task.status not in FINAL), None)
    if waiting is None:
        return (Step.CREATE if needs_person else Step.NOTHING), None
    if not needs_person:
        return Step.CLOSE, waiting
    return (Step.REMEMBER if waiting.status == PROCESSING else Step.TAKE), waiting


def closing_reason(job_id: str, learned: AdaptedFrom | None) -> str:
    """Why a waiting task was closed, as its annotators and team leads see it."""
    if learned is None:
        return "read again: the page no longer needs a person"
    if learned.job_id != job_id:
        return f"re-read with what was learned from page {learned.page} of an earlier upload"
    return f"re-read after the correction of page {learned.page}"
