"""The order the review queue offers tasks in (issue 42 item 3): the annotator's own and the most
urgent first, the job waiting longest, and within a job the page whose correction teaches the most
other pages, the least sure of them first."""

from datetime import UTC, datetime, timedelta

from skuflow_collab.domain.queue import Waiting, first, similar_pages

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def waiting(task_id: str, job_id: str = "j1", layout: str | None = None, standing: int = 2, priority: int = 2,
            difficulty: float = 0.7, minutes: int = 0) -> Waiting:
    return Waiting(task_id, job_id, layout, standing, priority, difficulty, T0 + timedelta(minutes=minutes))


def clusters_of(tasks: list[Waiting]) -> dict[tuple[str, str], int]:
    found: dict[tuple[str, str], int] = {}
    for task in tasks:
        if task.layout:
            found[task.job_id, task.layout] = found.get((task.job_id, task.layout), 0) + 1
    return found


def offered(tasks: list[Waiting], clusters=None) -> str | None:
    chosen = first(tasks, clusters_of(tasks) if clusters is None else clusters)
    return chosen.task_id if chosen else None


def test_within_a_job_the_largest_cluster_comes_first_and_of_it_the_least_sure_page():
    tasks = [waiting("alone", layout="a", difficulty=0.5), waiting("b-sure", layout="b", difficulty=0.9, minutes=1),
             waiting("b-unsure", layout="b", difficulty=0.6, minutes=2), waiting("b-3", layout="b", minutes=3),
             waiting("unsigned", difficulty=0.5)]
    assert offered(tasks) == "b-unsure"
    assert offered([t for t in tasks if t.layout != "b"]) == "alone"  # equal clusters: the least sure, then oldest


def test_the_cluster_counts_the_jobs_open_tasks_not_only_those_waiting_for_this_annotator():
    tasks = [waiting("a", layout="a", minutes=0), waiting("b", layout="b", minutes=1)]
    assert offered(tasks) == "a"
    assert offered(tasks, {("j1", "a"): 1, ("j1", "b"): 4}) == "b"  # three more of b held or dispatched elsewhere


def test_the_annotators_own_the_urgent_and_the_longest_waiting_job_come_before_the_cluster():
    big = [waiting(f"b{n}", layout="b", minutes=10 + n) for n in range(3)]
    assert offered([*big, waiting("held", standing=0, minutes=30)]) == "held"
    assert offered([*big, waiting("mine", standing=1, minutes=30)]) == "mine"
    assert offered([*big, waiting("urgent", priority=1, minutes=30)]) == "urgent"
    assert offered([*big, waiting("older-job", job_id="j0", minutes=5)]) == "older-job"
    assert offered([*big, waiting("newer-job", job_id="j2", minutes=20, difficulty=0.1)]) == "b0"
    assert offered([]) is None


def test_similar_pages_are_the_jobs_other_open_tasks_of_the_layout():
    clusters = {("j1", "b"): 3}
    assert similar_pages("j1", "b", True, clusters) == 2
    assert similar_pages("j1", "b", False, clusters) == 3  # a finished task's correction teaches all three
    assert similar_pages("j1", None, True, clusters) == similar_pages("j2", "b", False, clusters) == 0
