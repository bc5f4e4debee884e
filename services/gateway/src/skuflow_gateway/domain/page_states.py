"""A page's state as the gateway follows it (seed-001b §1.2.1 page statuses, seed-000 §12.7,
seed-001a §5.3), as one table: each page event is a trigger.

Page events travel on several topics and arrive in any order, so the table says what each may
change: a reading replaces only an unread or failed page (a retry's new reading replaces its
failure; a late or repeated one changes nothing); a failure reported after the page was read (a
later stage dead-lettered) does not undo the reading; a person's review replaces whatever the
machine said, from any state, and newer reviews replace older ones (checked on the revision); a
re-read after a person corrected a page of the same layout (issue 42) replaces the machine's earlier
reading, never a person's (and an older reading never a newer one, checked on the revision); a full
reprocess sends every page back to PENDING, and the events of earlier readings are then ignored (the
job's ``generation``). The downstream import is the page's ``import_status``, followed by the output
service's own table (skuflow_output.domain.imports).
"""

from __future__ import annotations

from skuflow_platform.states import Machine

PENDING, AI_PROCESSING = "PENDING", "AI_PROCESSING"
AI_COMPLETED, AI_FAILED, DEAD_LETTER = "AI_COMPLETED", "AI_FAILED", "DEAD_LETTER"
HUMAN_QUEUED, HUMAN_COMPLETED, HUMAN_SKIPPED = "HUMAN_QUEUED", "HUMAN_COMPLETED", "HUMAN_SKIPPED"
AUTO_SLA, SLA_SKIPPED = "AUTO_SLA", "SLA_SKIPPED"

# The machine's reading, by the status the binder gave the page.
READING = {AI_COMPLETED: "read", HUMAN_QUEUED: "read_doubtful", AI_FAILED: "read_failed"}
# The machine's re-reading of the page within its generation, by the same statuses.
REREADING = {status: f"re{trigger}" for status, trigger in READING.items()}
# A review's outcome, by the status collab gave the page: a person's reading, a skip, or the SLA's.
REVIEW = {HUMAN_COMPLETED: "reviewed", HUMAN_SKIPPED: "review_skipped", AUTO_SLA: "sla_completed",
          SLA_SKIPPED: "sla_skipped"}
STATES = (PENDING, AI_PROCESSING, AI_COMPLETED, AI_FAILED, DEAD_LETTER, HUMAN_QUEUED, HUMAN_COMPLETED,
          HUMAN_SKIPPED, AUTO_SLA, SLA_SKIPPED)
MACHINES = (None, *(status for status in STATES if status not in REVIEW))  # no person has had their say
IN_FLIGHT = (PENDING, AI_PROCESSING)  # a page waiting for its reading
UNREAD = (None, *IN_FLIGHT)
FAILED = (AI_FAILED, DEAD_LETTER)

PAGE = Machine(
    entity="page",
    states=STATES,
    final=frozenset(),  # a person may always review a page again (a team lead's revert)
    moves={
        (None, "parsed"): AI_PROCESSING,
        (PENDING, "parsed"): AI_PROCESSING,
        **{(status, "reprocess"): PENDING for status in (None, *STATES)},
        **{(status, trigger): to for status in UNREAD + FAILED for to, trigger in READING.items()},
        **{(status, trigger): to for status in MACHINES for to, trigger in REREADING.items()},
        **{(status, "dead_lettered"): DEAD_LETTER for status in UNREAD},
        **{(status, trigger): to for status in (None, *STATES) for to, trigger in REVIEW.items()},
    },
)


def reading_trigger(result_status: str, reading: int = 0) -> str:
    """The first reading's trigger, or a re-read's (``reading`` > 0); a reading with a status this table
    does not name is a reading nonetheless (never lost)."""
    triggers = REREADING if reading else READING
    return triggers.get(result_status, triggers[AI_COMPLETED])


def review_trigger(result_status: str) -> str:
    return REVIEW.get(result_status, "reviewed")


def pages_caught_up(total_pages: int, statuses: dict[int, str], failed_pages: set[int]) -> bool:
    """Whether the gateway has read every page a job.completed reports on: each page has a reading,
    and a page the output counts as read is not still failed here (a retry's reading not yet heard).
    Until then the completion waits, so the uploader's timeline shows the pages before the job."""
    return all(statuses.get(page) not in UNREAD and (page in failed_pages or statuses[page] not in FAILED)
               for page in range(1, total_pages + 1))
