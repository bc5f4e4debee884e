"""What a machine reading of a page does to its tasks (issue 42): a waiting task takes a newer reading
or is closed by it, a held task only remembers it, a page a person had their say on keeps its tasks,
and an older or repeated reading changes nothing."""

from dataclasses import dataclass

import pytest

from skuflow_collab.domain.readings import Step, closing_reason, step
from skuflow_contracts.events import AdaptedFrom


@dataclass(frozen=True)
class Task:
    status: str
    reading: int = 0
    rework_count: int = 0
    superseded_by: int | None = None


ADAPTED = Task("SKIPPED", reading=1, superseded_by=101)  # a re-read needed no person


@pytest.mark.parametrize("tasks, reading, needs_person, expected", [
    ([], 0, True, Step.CREATE),  # the first reading of a doubtful page
    ([], 0, False, Step.NOTHING),
    ([], 1, True, Step.CREATE),  # a re-read makes a page doubtful that was not
    ([Task("CREATED")], 0, True, Step.NOTHING),  # the first reading redelivered
    ([Task("CREATED")], 1, True, Step.TAKE),  # the annotator starts from the better draft
    ([Task("ESCALATED")], 1, True, Step.TAKE),
    ([Task("CREATED")], 1, False, Step.CLOSE),  # the re-read needs no person
    ([Task("ESCALATED")], 2, False, Step.CLOSE),
    ([Task("PROCESSING")], 1, False, Step.CLOSE),  # held, but the page needs no person: the workbench says why
    ([Task("PROCESSING")], 1, True, Step.REMEMBER),  # a person is on a page that still needs one: their page stays
    ([Task("CREATED", reading=2)], 1, True, Step.NOTHING),  # an older reading arriving late
    ([ADAPTED], 1, True, Step.NOTHING),  # the reading that closed it, redelivered
    ([ADAPTED], 2, True, Step.CREATE),  # doubtful again (read again without a reverted lesson)
    ([ADAPTED], 2, False, Step.NOTHING),
    ([ADAPTED, Task("CREATED", reading=2)], 3, False, Step.CLOSE),
    ([Task("COMPLETED")], 1, True, Step.NOTHING),  # a person reviewed it: never reopened
    ([Task("COMPLETED")], 1, False, Step.NOTHING),
    ([Task("SKIPPED")], 1, True, Step.NOTHING),  # a person (or the SLA) skipped it: their say stands
    ([Task("CREATED", rework_count=1)], 1, False, Step.NOTHING),  # a team lead sent it back to a person
    ([ADAPTED, Task("COMPLETED", reading=2)], 3, True, Step.NOTHING),
])
def test_a_reading_takes_one_step_on_the_pages_tasks(tasks, reading, needs_person, expected):
    action, task = step(tasks, reading, needs_person)
    assert action is expected
    assert (task is None) == (expected in (Step.CREATE, Step.NOTHING))
    assert task is None or task.status not in ("COMPLETED", "SKIPPED")


def test_a_closed_task_says_which_correction_taught_the_reader():
    assert closing_reason("job-1", AdaptedFrom(job_id="job-1", page=3)) == "re-read after the correction of page 3"
    assert closing_reason("job-2", AdaptedFrom(job_id="job-1", page=3)) == (
        "re-read with what was learned from page 3 of an earlier upload")
    assert closing_reason("job-1", None) == "read again: the page no longer needs a person"
