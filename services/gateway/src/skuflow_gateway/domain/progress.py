"""What a job's progress looks like to its uploader (seed-001b §2.4, NFR-18): phase, pages by
state, and a time left estimated from the pages' own measured rate."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from skuflow_gateway.domain.job_states import DEGRADED_HUMAN, EVALUATED, EVALUATING, JOB, PARTIAL_IMPORTED, UPLOADED
from skuflow_gateway.domain.page_states import IN_FLIGHT

AWAITING_PERSON = "HUMAN_QUEUED"
WAITING_FOR_PEOPLE = (PARTIAL_IMPORTED, DEGRADED_HUMAN)  # closed by the output, reviews still to come


@dataclass(frozen=True)
class Progress:
    phase: str
    phase_detail: str
    completed_pages: int
    page_breakdown: dict[str, int]
    estimated_remaining_sec: int | None


def page_breakdown(statuses: list[str], total_pages: int | None) -> dict[str, int]:
    """Pages per state, lower-cased as the seed's example shows; pages not yet started are pending."""
    counts = Counter(status.lower() for status in statuses)
    pending = (total_pages or 0) - len(statuses)
    if pending > 0:
        counts["pending"] = pending
    return dict(sorted(counts.items()))


def remaining_seconds(total_pages: int | None, done: int, elapsed_seconds: float | None) -> int | None:
    """Time left at the rate measured so far on this job; None until a page is done."""
    if not total_pages or not done or elapsed_seconds is None or elapsed_seconds <= 0:
        return None
    return round((total_pages - done) * elapsed_seconds / done)


def progress(status: str, closed: bool, total_pages: int | None, statuses: list[str],
             elapsed_seconds: float | None) -> Progress:
    """``statuses`` holds one entry per page the gateway has heard of; ``closed``: the output
    service has written the job's result; ``elapsed_seconds`` since the first page started."""
    done = (total_pages or 0) if closed else sum(1 for s in statuses if s not in IN_FLIGHT)
    breakdown = page_breakdown(statuses, total_pages)
    if status in (UPLOADED, EVALUATING, EVALUATED):
        return Progress("evaluating", "Evaluating the document", 0, breakdown, None)
    if closed and status in WAITING_FOR_PEOPLE:
        waiting = breakdown.get(AWAITING_PERSON.lower(), 0)
        return Progress("human_pending", f"{waiting} pages wait for a person's review", done, breakdown, None)
    if status in JOB.final or closed:
        return Progress("done", f"Finished: {status}", done, breakdown, 0)
    if total_pages and done >= total_pages:
        return Progress("importing", "Assembling the result", done, breakdown, None)
    detail = f"Processing page {done + 1}/{total_pages}" if total_pages else "Processing"
    return Progress("processing", detail, done, breakdown, remaining_seconds(total_pages, done, elapsed_seconds))
