"""SLA escalation of waiting tasks (seed-001a §10.4): four levels, timed from the task's creation.

NORMAL 15 min → HIGH; HIGH 30 min → escalated to a team lead, level CRITICAL; CRITICAL 120 min →
accept the machine's reading when it was confident (> 0.6), else level AUTO_RESOLVE; AUTO_RESOLVE
180 min → skipped, so the job is not blocked for ever.
"""

from __future__ import annotations

from dataclasses import dataclass

LEVELS = ("NORMAL", "HIGH", "CRITICAL", "AUTO_RESOLVE")
AUTO_ACCEPT = 0.6  # the machine's confidence above which a forgotten task keeps its reading
STEP_MINUTES = BOOST, TIMEOUT, AUTO_COMPLETE, AUTO_RESOLVE = (15, 30, 120, 180)  # a task's age at each level's step


@dataclass(frozen=True)
class Step:
    trigger: str
    level: str


def sla_step(level: str, age_minutes: float, ai_confidence: float) -> Step | None:
    """What the scanner does to a waiting task now (None: nothing yet)."""
    if level == "NORMAL" and age_minutes >= BOOST:
        return Step("sla_boost", "HIGH")
    if level == "HIGH" and age_minutes >= TIMEOUT:
        return Step("sla_timeout", "CRITICAL")
    if level == "CRITICAL" and age_minutes >= AUTO_COMPLETE:
        return Step("sla_auto_complete", "CRITICAL") if ai_confidence > AUTO_ACCEPT else Step("sla_boost",
                                                                                             "AUTO_RESOLVE")
    if level == "AUTO_RESOLVE" and age_minutes >= AUTO_RESOLVE:
        return Step("sla_auto_resolve", "AUTO_RESOLVE")
    return None
