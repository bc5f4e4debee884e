"""The task state machine: every allowed move, every refused one, and who may make it."""

import itertools

import pytest

from skuflow_collab.domain.lifecycle import (
    STATUSES,
    TRANSITIONS,
    IllegalMove,
    NotAllowed,
    move,
)

TRIGGERS = sorted({trigger for _, trigger in TRANSITIONS})
EVERYONE = ("annotator", "team_lead", "admin", "system")

ALLOWED = {
    ("CREATED", "lock"): "PROCESSING", ("ESCALATED", "supervisor_assign"): "PROCESSING",
    ("PROCESSING", "complete"): "COMPLETED", ("PROCESSING", "skip"): "SKIPPED",
    ("PROCESSING", "release"): "CREATED", ("PROCESSING", "lock_timeout"): "CREATED",
    ("COMPLETED", "revert"): "CREATED", ("SKIPPED", "revert"): "CREATED",
    ("CREATED", "sla_boost"): "CREATED", ("CREATED", "sla_timeout"): "ESCALATED",
    ("CREATED", "sla_auto_complete"): "COMPLETED", ("CREATED", "sla_auto_resolve"): "SKIPPED",
    ("ESCALATED", "sla_boost"): "ESCALATED", ("ESCALATED", "sla_auto_complete"): "COMPLETED",
    ("ESCALATED", "sla_auto_resolve"): "SKIPPED",
    ("CREATED", "batch_skip"): "SKIPPED", ("ESCALATED", "batch_skip"): "SKIPPED",
    ("CREATED", "reassign"): "CREATED", ("ESCALATED", "reassign"): "CREATED",
    ("CREATED", "supersede"): "SKIPPED", ("ESCALATED", "supersede"): "SKIPPED",
    ("PROCESSING", "supersede"): "SKIPPED",  # a full reprocess read the page again
    ("CREATED", "adapted"): "SKIPPED", ("ESCALATED", "adapted"): "SKIPPED",
    ("PROCESSING", "adapted"): "SKIPPED",  # re-read: no person needed now, held or not
}


@pytest.mark.parametrize("status, trigger", sorted(ALLOWED))
def test_every_allowed_move(status, trigger):
    assert move(status, trigger, EVERYONE) == ALLOWED[(status, trigger)]


@pytest.mark.parametrize("status, trigger", [pair for pair in itertools.product(STATUSES, TRIGGERS)
                                             if pair not in ALLOWED])
def test_every_other_move_is_refused(status, trigger):
    with pytest.raises(IllegalMove, match=f"a {status} task cannot '{trigger}'"):
        move(status, trigger, EVERYONE)


def test_only_team_leads_and_admins_revert_take_escalated_tasks_or_act_on_batches():
    for trigger, status in (("revert", "COMPLETED"), ("revert", "SKIPPED"), ("supervisor_assign", "ESCALATED"),
                            ("batch_skip", "CREATED"), ("reassign", "ESCALATED")):
        with pytest.raises(NotAllowed):
            move(status, trigger, ("annotator",))
        assert move(status, trigger, ("team_lead",)) == move(status, trigger, ("admin",))


def test_annotators_cannot_drive_the_timers_and_the_timers_cannot_work_tasks():
    with pytest.raises(NotAllowed):
        move("CREATED", "sla_auto_resolve", ("team_lead", "admin"))
    with pytest.raises(NotAllowed):
        move("CREATED", "lock", ("system",))
    with pytest.raises(NotAllowed):
        move("PROCESSING", "supersede", ("team_lead", "admin"))
    with pytest.raises(NotAllowed):
        move("CREATED", "adapted", ("team_lead", "admin"))
    assert move("PROCESSING", "complete", ("team_lead",)) == "COMPLETED"
