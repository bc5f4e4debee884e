"""The page import's state table (seed-001a §5.3, §7.26–7.27), the receiver's answers and INV-04."""

import pytest

from skuflow_output.domain.imports import (
    PAGE_IMPORT,
    answer_of,
    backoff_seconds,
    imports_settled,
    page_key,
)
from tests.state_tables import table_tests

ALLOWED = [
    (None, "deliver", "PENDING"),
    ("PENDING", "confirmed", "IMPORTED_CONFIRMED"),
    ("PENDING", "accepted", "IMPORTED_ASSUMED"),
    ("PENDING", "failed", "IMPORT_FAILED"),
    ("PENDING", "supersede", "SUPERSEDED"),
    ("PENDING", "cancel", "SKIPPED"),
    ("IMPORT_FAILED", "confirmed", "IMPORTED_CONFIRMED"),  # a retry got through
    ("IMPORT_FAILED", "accepted", "IMPORTED_ASSUMED"),
    ("IMPORT_FAILED", "failed", "IMPORT_FAILED"),
    ("IMPORT_FAILED", "supersede", "SUPERSEDED"),
    ("IMPORT_FAILED", "cancel", "SKIPPED"),
    ("IMPORT_FAILED", "stale_import_timeout", "SKIPPED"),
    ("IMPORTED_ASSUMED", "reconciled", "IMPORTED_CONFIRMED"),
]
REFUSED = [
    ("IMPORTED_CONFIRMED", "failed"),  # a late failure cannot undo a confirmed import
    ("IMPORTED_CONFIRMED", "supersede"),  # what downstream holds stays; the new revision is imported too
    ("IMPORTED_ASSUMED", "failed"),
    ("IMPORTED_ASSUMED", "stale_import_timeout"),
    ("PENDING", "reconciled"),  # only an accepted import is reconciled
    ("PENDING", "stale_import_timeout"),
    ("SKIPPED", "confirmed"),
    ("SUPERSEDED", "deliver"),
    (None, "confirmed"),
]


test_allowed_moves, test_refused_moves = table_tests(PAGE_IMPORT, ALLOWED, REFUSED)


def test_every_move_of_the_table_has_a_case_here():
    assert set(PAGE_IMPORT.moves) == {(status, trigger) for status, trigger, _ in ALLOWED}


@pytest.mark.parametrize("http_status, body, trigger, retry", [
    (200, {"confirmed": True}, "confirmed", False),
    (201, {"confirmed": True}, "confirmed", False),
    (202, {"confirmed": False}, "accepted", False),
    (200, None, "accepted", False),  # a 2xx without a confirmation is only assumed
    (200, {"confirmed": "yes"}, "accepted", False),
    (409, None, "confirmed", False),  # already there
    (500, None, "failed", True),
    (503, None, "failed", True),
    (429, None, "failed", True),
    (408, None, "failed", True),
    (400, {"error": "bad"}, "failed", False),  # the content was refused: calling again cannot help
    (422, None, "failed", False),
    (None, None, "failed", True),  # no reply: timeout or refused connection
])
def test_the_receivers_answer(http_status, body, trigger, retry):
    answer = answer_of(http_status, body)
    assert (answer.trigger, answer.retry) == (trigger, retry)
    assert (answer.error is not None) == (trigger == "failed")


def test_backoff_doubles_up_to_its_cap():
    assert [backoff_seconds(n, 2.0, 30.0) for n in range(1, 7)] == [2.0, 4.0, 8.0, 16.0, 30.0, 30.0]


def test_inv04_an_assumed_import_counts_a_pending_or_failing_one_does_not():
    assert imports_settled(["IMPORTED_CONFIRMED", "IMPORTED_ASSUMED", "SKIPPED", "SUPERSEDED"])
    assert imports_settled([])  # a job with nothing to import
    assert not imports_settled(["IMPORTED_CONFIRMED", "PENDING"])
    assert not imports_settled(["IMPORTED_CONFIRMED", "IMPORT_FAILED"])


def test_the_page_key_names_merchant_job_revision_and_page():
    assert page_key("m1", "job-1", 2, 7) == "m1/job-1/r2/p7"
