"""The job state machine (seed-001a §5.1): every move the table allows, and moves it refuses."""

import pytest

from skuflow_gateway.domain.job_states import (
    JOB,
    completion_path,
    failed_trigger,
    route_trigger,
    settled,
)
from skuflow_platform.states import ANY, Refused
from tests.state_tables import table_tests

ALLOWED = [
    (None, "upload", "UPLOADED"),
    ("UPLOADED", "start_eval", "EVALUATING"),
    ("EVALUATING", "eval_done", "EVALUATED"),
    ("EVALUATING", "eval_failed", "EVAL_FAILED"),
    ("EVALUATED", "ai_route", "PROCESSING"),
    ("EVALUATED", "human_route", "DEGRADED_HUMAN"),
    ("PROCESSING", "all_imported", "FULL_IMPORTED"),
    ("PROCESSING", "pages_failed", "PARTIAL_FAILED"),
    ("PROCESSING", "review_pending", "PARTIAL_IMPORTED"),
    ("PARTIAL_IMPORTED", "all_imported", "FULL_IMPORTED"),
    ("PARTIAL_IMPORTED", "pages_failed", "PARTIAL_FAILED"),
    ("DEGRADED_HUMAN", "all_imported", "FULL_IMPORTED"),
    ("DEGRADED_HUMAN", "human_review_pending", "DEGRADED_HUMAN"),
    ("PARTIAL_FAILED", "all_imported", "FULL_IMPORTED"),  # a replayed page completed the job
    ("PARTIAL_FAILED", "pages_failed", "PARTIAL_FAILED"),
    ("DEGRADED_HUMAN", "pages_failed", "PARTIAL_FAILED"),
    ("PARTIAL_FAILED", "review_pending", "PARTIAL_IMPORTED"),
    ("PARTIAL_FAILED", "human_review_pending", "DEGRADED_HUMAN"),
    ("PARTIAL_FAILED", "retry_pages", "PROCESSING"),
    ("FULL_IMPORTED", "reprocess", "PROCESSING"),  # read again under a new config version
    ("PARTIAL_IMPORTED", "reprocess", "PROCESSING"),
    ("PARTIAL_FAILED", "reprocess", "PROCESSING"),
    ("DEGRADED_HUMAN", "reprocess", "PROCESSING"),
    ("PROCESSING", "heartbeat_scan", "ORPHANED"),
    ("ORPHANED", "requeue", "PROCESSING"),
    ("ORPHANED", "cancel", "CANCELLED"),
    ("EVAL_FAILED", "cancel", "CANCELLED"),
    ("UPLOADED", "cancel", "CANCELLED"),
    ("PARTIAL_IMPORTED", "cancel", "CANCELLED"),
    ("DEGRADED_HUMAN", "cancel", "CANCELLED"),
    ("EVALUATED", "reject", "REJECTED"),
    ("PROCESSING", "reject", "REJECTED"),
]

REFUSED = [
    (None, "start_eval"),  # a job is uploaded first
    ("UPLOADED", "ai_route"),  # no route without an evaluation
    ("EVALUATING", "all_imported"),
    ("PROCESSING", "eval_done"),  # a late job.routed
    ("FULL_IMPORTED", "pages_failed"),  # a finished job never moves back
    ("FULL_IMPORTED", "cancel"),
    ("CANCELLED", "reject"),
    ("REJECTED", "cancel"),
    ("EVAL_FAILED", "reject"),
    ("DEGRADED_HUMAN", "review_pending"),  # a job routed to people waits as DEGRADED_HUMAN
    ("PROCESSING", "requeue"),
    ("FULL_IMPORTED", "retry_pages"),  # nothing failed in a finished job
    ("PROCESSING", "no_such_trigger"),
    ("PROCESSING", "reprocess"),  # not judged yet (and one reprocess at a time)
    ("CANCELLED", "reprocess"),
    ("REJECTED", "reprocess"),
]


test_allowed_moves, test_refused_moves = table_tests(JOB, ALLOWED, REFUSED)


def test_every_move_of_the_table_has_a_case_here():
    """A move added to the table without a case above fails this test."""
    tested = {(status, trigger) for status, trigger, _ in ALLOWED}
    any_tested = {trigger for status, trigger, _ in ALLOWED if (status, trigger) not in JOB.moves}
    untested = [(s, t) for s, t in JOB.moves if (s, t) not in tested and not (s == ANY and t in any_tested)]
    assert untested == []
    assert len(JOB.states) == 12


def test_a_path_is_written_whole_or_not_at_all():
    assert [m[2] for m in JOB.path(None, ["upload", "start_eval"])] == ["UPLOADED", "EVALUATING"]
    with pytest.raises(Refused):
        JOB.path("EVALUATING", ["eval_done", "all_imported"])


def test_a_completion_that_overtakes_the_routing_event_moves_through_the_routing_first():
    assert completion_path("EVALUATING", "FULL_IMPORTED") == ["eval_done", "ai_route", "all_imported"]
    assert completion_path("EVALUATED", "DEGRADED_HUMAN") == ["human_route", "human_review_pending"]
    assert completion_path("PROCESSING", "PARTIAL_FAILED") == ["pages_failed"]
    moves = JOB.path("UPLOADED", completion_path("UPLOADED", "PARTIAL_IMPORTED"))
    assert moves[-1][2] == "PARTIAL_IMPORTED"


def test_routes_failures_and_settled_jobs():
    assert (route_trigger("AUTO"), route_trigger("HYBRID"), route_trigger("HUMAN_ALL")) == (
        "ai_route", "ai_route", "human_route")
    assert failed_trigger("eval_failed") == "eval_failed"
    assert failed_trigger("security:encrypted_pdf") == "reject"
    assert settled("REJECTED", closed=False) and settled("PARTIAL_FAILED", closed=True)
    assert not settled("DEGRADED_HUMAN", closed=False)  # routed to people, but its pages are not in yet
    assert settled("DEGRADED_HUMAN", closed=True) and settled("PARTIAL_IMPORTED", closed=True)  # waits for people
    assert not settled("PROCESSING", closed=True)  # its failed pages are being read again (a retry)
