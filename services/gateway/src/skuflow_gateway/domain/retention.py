"""How long a job's files are kept and what a filling disk does (seed-001b §1.1, runbook #4).

Stored files (the PDF, page pictures and readings, the result directory) are kept 30 days after
the job ended; the database rows are permanent until the merchant deletes the job. The disk's
fill decides the rest: over 75% is a warning, over 85% the cleanup runs at once, from 95% new
uploads are refused with 503 so that jobs under way can still finish.
"""

from __future__ import annotations

from dataclasses import dataclass

OK, WARNING, URGENT, FULL = "ok", "warning", "urgent", "full"


@dataclass(frozen=True)
class DiskLimits:
    warning: float = 0.75
    urgent: float = 0.85
    refuse: float = 0.95


def disk_state(used_ratio: float, limits: DiskLimits) -> str:
    if used_ratio >= limits.refuse:
        return FULL
    if used_ratio >= limits.urgent:
        return URGENT
    return WARNING if used_ratio >= limits.warning else OK


def job_prefixes(job_id: str) -> tuple[str, ...]:
    """Where a job's files live in storage: what the parser, collab and output wrote for it, and the
    stages' page traces (``jobs/{job_id}/traces``)."""
    return (f"jobs/{job_id}", f"results/{job_id}")
