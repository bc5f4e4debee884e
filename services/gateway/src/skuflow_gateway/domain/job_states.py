"""The job state machine (seed-001a §5.1): the 12 statuses and every move between them, as one table.

The gateway owns a job's status; every status event it hears is a trigger fired through ``JOB``.
Events of one job travel on several topics, consumed independently, so a move the table refuses
is a late or repeated event and changes nothing (a finished job never moves back).

Where this differs from the seed, and why (docs/decisions.md):
- The output service's verdict on the pages (``job.completed``) is one trigger per verdict:
  ``all_imported`` is the seed's all_pages_done / import_partial / all_human_done, and a job whose
  dead-lettered pages come back (DLQ replay, page retry) leaves PARTIAL_FAILED the same way.
- A document refused after evaluation (the parser finds it encrypted) or a job with nothing to
  show within the watchdog's limit is REJECTED from any unfinished status.
- A full reprocess (``reprocess``, seed-003_004's retry kinds) takes a judged job back to
  PROCESSING, FULL_IMPORTED included: its pages are read again under a new config version and the
  new revision supersedes the old one downstream.
"""

from __future__ import annotations

from skuflow_contracts.events import EVAL_FAILED_REASON
from skuflow_platform.states import ANY, Machine

UPLOADED, EVALUATING, EVALUATED, EVAL_FAILED = "UPLOADED", "EVALUATING", "EVALUATED", "EVAL_FAILED"
PROCESSING, DEGRADED_HUMAN, ORPHANED = "PROCESSING", "DEGRADED_HUMAN", "ORPHANED"
PARTIAL_IMPORTED, PARTIAL_FAILED, FULL_IMPORTED = "PARTIAL_IMPORTED", "PARTIAL_FAILED", "FULL_IMPORTED"
REJECTED, CANCELLED = "REJECTED", "CANCELLED"

AWAITING_OUTPUT = (PROCESSING, PARTIAL_IMPORTED, PARTIAL_FAILED, DEGRADED_HUMAN)
REPROCESSABLE = (FULL_IMPORTED, PARTIAL_IMPORTED, PARTIAL_FAILED, DEGRADED_HUMAN)  # the output has judged it

JOB = Machine(
    entity="job",
    states=(UPLOADED, EVALUATING, EVALUATED, EVAL_FAILED, PROCESSING, DEGRADED_HUMAN, PARTIAL_IMPORTED,
            PARTIAL_FAILED, FULL_IMPORTED, ORPHANED, REJECTED, CANCELLED),
    final=frozenset({FULL_IMPORTED, EVAL_FAILED, REJECTED, CANCELLED}),
    moves={
        (None, "upload"): UPLOADED,
        (UPLOADED, "start_eval"): EVALUATING,
        (EVALUATING, "eval_done"): EVALUATED,
        (EVALUATING, "eval_failed"): EVAL_FAILED,
        (EVALUATED, "ai_route"): PROCESSING,
        (EVALUATED, "human_route"): DEGRADED_HUMAN,
        **{(status, "all_imported"): FULL_IMPORTED for status in AWAITING_OUTPUT},
        **{(status, "pages_failed"): PARTIAL_FAILED for status in AWAITING_OUTPUT},
        (PROCESSING, "review_pending"): PARTIAL_IMPORTED,
        (PARTIAL_FAILED, "review_pending"): PARTIAL_IMPORTED,
        (PARTIAL_FAILED, "human_review_pending"): DEGRADED_HUMAN,
        (DEGRADED_HUMAN, "human_review_pending"): DEGRADED_HUMAN,
        (PARTIAL_FAILED, "retry_pages"): PROCESSING,  # its failed pages are read again
        # A full reprocess with a new config version reads every page again, even of a finished job.
        **{(status, "reprocess"): PROCESSING for status in REPROCESSABLE},
        (PROCESSING, "heartbeat_scan"): ORPHANED,
        (ORPHANED, "requeue"): PROCESSING,
        (EVAL_FAILED, "cancel"): CANCELLED,
        (ANY, "cancel"): CANCELLED,
        (ANY, "reject"): REJECTED,
    },
)

# The output service's verdict in job.completed, as the trigger it fires here.
VERDICT_TRIGGER = {FULL_IMPORTED: "all_imported", PARTIAL_FAILED: "pages_failed",
                   PARTIAL_IMPORTED: "review_pending", DEGRADED_HUMAN: "human_review_pending"}
BEFORE_ROUTING = {UPLOADED: ("start_eval", "eval_done", "{route}"), EVALUATING: ("eval_done", "{route}"),
                  EVALUATED: ("{route}",)}


def route_trigger(route: str | None) -> str:
    return "human_route" if route == "HUMAN_ALL" else "ai_route"


def completion_path(status: str, verdict: str) -> list[str]:
    """The triggers a job.completed fires: the output's verdict, after the routing moves a job still
    waiting for its job.routed must make first (the two topics are consumed independently)."""
    route = "HUMAN_ALL" if verdict == DEGRADED_HUMAN else None
    catch_up = [t.format(route=route_trigger(route)) for t in BEFORE_ROUTING.get(status, ())]
    return [*catch_up, VERDICT_TRIGGER[verdict]]


def failed_trigger(reason: str) -> str:
    """job.failed from the evaluator's own failure is EVAL_FAILED (seed-001a §5.1); every other refusal
    of the document is REJECTED."""
    return "eval_failed" if reason == EVAL_FAILED_REASON else "reject"


def judged(status: str, closed: bool) -> bool:
    """Has the output service judged every page (``closed``: it wrote the job's result)? A cancelled
    job's result holds only the pages that delivered before the cancel."""
    return closed and status != CANCELLED


def settled(status: str, closed: bool) -> bool:
    """The job is completed: final, or judged by the output service (it wrote a result) with what
    remains people's (reviews, retries). Not a job routed to people whose pages are still being
    read (DEGRADED_HUMAN before its result), nor one whose failed pages are read again (PROCESSING)."""
    return status in JOB.final or (closed and status in VERDICT_TRIGGER)
