"""The stuck-job watchdog's rule (ARCHITECTURE §2, seed-003_004): every job ends.

A job that has shown no progress for longer than the limit is either failed as a whole (nothing
ever came back: no page count is known) or has its missing pages failed, which lets the output
service complete it as PARTIAL_FAILED with a reason. A page that arrives later still replaces its
failure (a late or replayed result is never lost).
"""

from __future__ import annotations

from dataclasses import dataclass

NO_PROGRESS = "timeout:no_progress"


@dataclass(frozen=True)
class StuckVerdict:
    fail_job: bool = False
    missing_pages: tuple[int, ...] = ()


def verdict(settled: bool, total_pages: int | None, pages_seen: set[int], idle_seconds: float,
            limit_seconds: float) -> StuckVerdict | None:
    """None when nothing more is expected of the pipeline (``job_states.settled``) or the job is
    still within its limit."""
    if settled or idle_seconds < limit_seconds:
        return None
    if not total_pages:
        return StuckVerdict(fail_job=True)
    missing = tuple(page for page in range(1, total_pages + 1) if page not in pages_seen)
    return StuckVerdict(missing_pages=missing) if missing else None
