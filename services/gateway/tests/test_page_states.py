"""The page state table: every move it allows, and the late or repeated events it refuses."""


from skuflow_gateway.domain.page_states import (
    MACHINES,
    PAGE,
    REREADING,
    REVIEW,
    STATES,
    pages_caught_up,
    reading_trigger,
    review_trigger,
)
from tests.state_tables import table_tests

ALLOWED = [
    (None, "parsed", "AI_PROCESSING"),
    ("AI_PROCESSING", "read", "AI_COMPLETED"),
    ("AI_PROCESSING", "read_doubtful", "HUMAN_QUEUED"),
    ("AI_PROCESSING", "read_failed", "AI_FAILED"),
    ("AI_PROCESSING", "dead_lettered", "DEAD_LETTER"),
    (None, "read", "AI_COMPLETED"),  # the reading overtook page.parsed
    (None, "read_doubtful", "HUMAN_QUEUED"),
    (None, "read_failed", "AI_FAILED"),
    (None, "dead_lettered", "DEAD_LETTER"),
    ("DEAD_LETTER", "read", "AI_COMPLETED"),  # a retried or replayed page replaces its failure
    ("DEAD_LETTER", "read_doubtful", "HUMAN_QUEUED"),
    ("DEAD_LETTER", "read_failed", "AI_FAILED"),
    ("AI_FAILED", "read", "AI_COMPLETED"),
    ("AI_FAILED", "read_doubtful", "HUMAN_QUEUED"),
    ("AI_FAILED", "read_failed", "AI_FAILED"),
    ("HUMAN_QUEUED", "reviewed", "HUMAN_COMPLETED"),
    ("HUMAN_QUEUED", "review_skipped", "HUMAN_SKIPPED"),
    ("HUMAN_QUEUED", "sla_completed", "AUTO_SLA"),
    ("HUMAN_QUEUED", "sla_skipped", "SLA_SKIPPED"),
    ("HUMAN_COMPLETED", "reviewed", "HUMAN_COMPLETED"),  # reverted and reviewed again
    ("HUMAN_SKIPPED", "reviewed", "HUMAN_COMPLETED"),
    (None, "reviewed", "HUMAN_COMPLETED"),  # the review overtook everything else
    ("PENDING", "parsed", "AI_PROCESSING"),  # a full reprocess's reading starts
    ("PENDING", "read", "AI_COMPLETED"),  # ... or its reading overtook page.parsed
    ("PENDING", "read_doubtful", "HUMAN_QUEUED"),
    ("PENDING", "read_failed", "AI_FAILED"),
    ("PENDING", "dead_lettered", "DEAD_LETTER"),
    ("HUMAN_QUEUED", "reread", "AI_COMPLETED"),  # re-read after a correction: it no longer needs review
    ("AI_COMPLETED", "reread_doubtful", "HUMAN_QUEUED"),
    ("AI_COMPLETED", "reread", "AI_COMPLETED"),  # an older re-read is refused on the revision, not here
    ("DEAD_LETTER", "reread", "AI_COMPLETED"),
]
REFUSED = [
    ("AI_PROCESSING", "parsed"),  # a repeated page.parsed
    ("AI_COMPLETED", "parsed"),  # a late one
    ("AI_COMPLETED", "read"),  # the first reading stands
    ("HUMAN_QUEUED", "read"),
    ("AI_COMPLETED", "dead_lettered"),  # a later stage failed after the page was read
    ("HUMAN_QUEUED", "dead_lettered"),
    ("AI_FAILED", "dead_lettered"),
    ("DEAD_LETTER", "dead_lettered"),
    ("HUMAN_COMPLETED", "read"),  # a person's reading is never replaced by the machine's
    ("HUMAN_COMPLETED", "read_failed"),
    ("HUMAN_COMPLETED", "dead_lettered"),
    ("SLA_SKIPPED", "parsed"),
    ("PENDING", "reprocess_me"),
    ("HUMAN_COMPLETED", "reread"),  # a learned re-read never replaces a person's reading
    ("HUMAN_SKIPPED", "reread_doubtful"),
    ("AUTO_SLA", "reread"),
    ("SLA_SKIPPED", "reread_failed"),
]


test_allowed_moves, test_refused_moves = table_tests(PAGE, ALLOWED, REFUSED)


def test_every_move_is_listed_here_or_is_a_review_or_reprocess_from_some_state():
    tested = {(status, trigger) for status, trigger, _ in ALLOWED}
    from_anywhere = {(status, trigger) for status in (None, *STATES) for trigger in (*REVIEW.values(), "reprocess")}
    rereads = {(status, trigger) for status in MACHINES for trigger in REREADING.values()}
    assert set(PAGE.moves) - from_anywhere - rereads <= tested
    assert all(PAGE.fire(status, trigger) == to for to, trigger in REVIEW.items()
               for status in (None, *STATES))  # a review is accepted from every state
    assert {PAGE.fire(status, "reprocess") for status in (None, *STATES)} == {"PENDING"}  # so is a reprocess


def test_a_result_status_the_table_does_not_name_still_counts_as_a_reading_or_a_review():
    assert (reading_trigger("HUMAN_QUEUED"), reading_trigger("BLANK")) == ("read_doubtful", "read")
    assert (reading_trigger("HUMAN_QUEUED", reading=1), reading_trigger("BLANK", reading=2)) == (
        "reread_doubtful", "reread")
    assert (review_trigger("SLA_SKIPPED"), review_trigger("SOMETHING_NEW")) == ("sla_skipped", "reviewed")


def test_a_completion_waits_for_every_page_to_be_read_here():
    read, failed = {1: "AI_COMPLETED", 2: "DEAD_LETTER"}, {2}
    assert pages_caught_up(2, read, failed)
    assert not pages_caught_up(3, read, failed)  # page 3 not heard
    assert not pages_caught_up(2, {1: "AI_PROCESSING", 2: "DEAD_LETTER"}, failed)  # started, not read
    assert not pages_caught_up(2, read, set())  # page 2's retry reading not heard yet
