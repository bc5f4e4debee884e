"""The human task state machine (seed-001a §5.2, §10.4–10.5): one table of every allowed move.

A move is (status, trigger) → status, with the role the actor must hold. Nothing sets a task's
status except through ``move``, so an illegal request is refused the same way everywhere (HTTP 409).
The seed's SLA scanner also acts on escalated tasks (its table scans only CREATED, which would
leave an escalated task waiting for ever), the ops back office's batch skip and reassign are moves
of waiting tasks, and a full reprocess supersedes the open tasks of the readings it replaces; all are
written down in docs/decisions.md. A task whose page the machine read again after a person
corrected a page of the same layout, and which then needs no person, is closed by the system's
``adapted`` move (issue 42; domain/readings.py), held or not (the workbench tells its holder why):
nothing is published for it, the re-read reached output on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

CREATED, ESCALATED, PROCESSING, COMPLETED, SKIPPED = "CREATED", "ESCALATED", "PROCESSING", "COMPLETED", "SKIPPED"
STATUSES = (CREATED, ESCALATED, PROCESSING, COMPLETED, SKIPPED)
FINAL = frozenset({COMPLETED, SKIPPED})
ANNOTATOR, TEAM_LEAD, SYSTEM = "annotator", "team_lead", "system"


@dataclass(frozen=True)
class Move:
    to: str
    role: str  # who may make it: an annotator, a team lead, or the service itself (timers)


TRANSITIONS: dict[tuple[str, str], Move] = {
    (CREATED, "lock"): Move(PROCESSING, ANNOTATOR),
    (ESCALATED, "supervisor_assign"): Move(PROCESSING, TEAM_LEAD),
    (PROCESSING, "complete"): Move(COMPLETED, ANNOTATOR),
    (PROCESSING, "skip"): Move(SKIPPED, ANNOTATOR),
    (PROCESSING, "release"): Move(CREATED, ANNOTATOR),
    (PROCESSING, "lock_timeout"): Move(CREATED, SYSTEM),
    (COMPLETED, "revert"): Move(CREATED, TEAM_LEAD),
    (SKIPPED, "revert"): Move(CREATED, TEAM_LEAD),
    (CREATED, "sla_boost"): Move(CREATED, SYSTEM),
    (CREATED, "sla_timeout"): Move(ESCALATED, SYSTEM),
    (CREATED, "sla_auto_complete"): Move(COMPLETED, SYSTEM),
    (CREATED, "sla_auto_resolve"): Move(SKIPPED, SYSTEM),
    (ESCALATED, "sla_boost"): Move(ESCALATED, SYSTEM),
    (ESCALATED, "sla_auto_complete"): Move(COMPLETED, SYSTEM),
    (ESCALATED, "sla_auto_resolve"): Move(SKIPPED, SYSTEM),
    # The ops back office (seed-001b §2.5): skip a backlog, or hand waiting tasks to someone.
    (CREATED, "batch_skip"): Move(SKIPPED, TEAM_LEAD),
    (ESCALATED, "batch_skip"): Move(SKIPPED, TEAM_LEAD),
    (CREATED, "reassign"): Move(CREATED, TEAM_LEAD),
    (ESCALATED, "reassign"): Move(CREATED, TEAM_LEAD),
    # A full reprocess read the page again: the open task of the earlier reading has nothing to review.
    **{(status, "supersede"): Move(SKIPPED, SYSTEM) for status in (CREATED, ESCALATED, PROCESSING)},
    # A re-read after a correction of a page of the same layout needs no person: the waiting task is done.
    **{(status, "adapted"): Move(SKIPPED, SYSTEM) for status in (CREATED, ESCALATED, PROCESSING)},
}
# A team lead may do what an annotator may; admins may do what a team lead may.
ROLE_RANKS = {ANNOTATOR: (ANNOTATOR, TEAM_LEAD, "admin"), TEAM_LEAD: (TEAM_LEAD, "admin"), SYSTEM: (SYSTEM,)}


class IllegalMove(Exception):
    """The task cannot make this move from its status (HTTP 409)."""

    def __init__(self, status: str, trigger: str):
        super().__init__(f"a {status} task cannot '{trigger}'")
        self.status, self.trigger = status, trigger


class NotAllowed(Exception):
    """The actor lacks the role the move needs (HTTP 403)."""


def move(status: str, trigger: str, roles: tuple[str, ...] | frozenset[str]) -> str:
    """The status after ``trigger``, or IllegalMove / NotAllowed."""
    found = TRANSITIONS.get((status, trigger))
    if found is None:
        raise IllegalMove(status, trigger)
    if not set(roles) & set(ROLE_RANKS[found.role]):
        raise NotAllowed(f"'{trigger}' needs the {found.role} role")
    return found.to
