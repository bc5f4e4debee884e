"""The state machine table: moves, the ANY row, and a table naming a status it does not declare."""

import pytest

from skuflow_platform.states import ANY, Machine, Refused

LAMP = Machine("lamp", states=("OFF", "ON", "BROKEN"), final=frozenset({"BROKEN"}),
               moves={("OFF", "switch"): "ON", ("ON", "switch"): "OFF", (ANY, "smash"): "BROKEN"})


def test_moves_and_the_any_row():
    assert LAMP.fire("OFF", "switch") == "ON"
    assert LAMP.fire("ON", "smash") == "BROKEN"
    assert LAMP.can("OFF", "smash") and not LAMP.can("BROKEN", "smash")  # ANY never leaves a final status


def test_the_statuses_a_trigger_may_fire_from_include_the_any_row():
    assert LAMP.sources("switch") == ["OFF", "ON"]
    assert LAMP.sources("smash") == ["OFF", "ON"]  # not BROKEN: final


def test_a_refused_move_names_the_status_and_trigger():
    with pytest.raises(Refused, match="a BROKEN lamp cannot 'switch'"):
        LAMP.fire("BROKEN", "switch")


def test_a_table_with_an_undeclared_status_is_refused_when_declared():
    with pytest.raises(ValueError, match="unknown states"):
        Machine("lamp", states=("OFF",), final=frozenset(), moves={("OFF", "switch"): "ON"})
