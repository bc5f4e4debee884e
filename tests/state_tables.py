"""The two tests every state table gets: each listed move is allowed and lands where it says, each
listed refusal is refused. A test module binds them to its table and cases:

    test_allowed_moves, test_refused_moves = table_tests(SKU, ALLOWED, REFUSED)
"""

import pytest

from skuflow_platform.states import Machine, Refused


def table_tests(machine: Machine, allowed: list[tuple], refused: list[tuple]):
    @pytest.mark.parametrize("status, trigger, after", allowed)
    def test_allowed_moves(status, trigger, after):
        assert machine.fire(status, trigger) == after

    @pytest.mark.parametrize("status, trigger", refused)
    def test_refused_moves(status, trigger):
        with pytest.raises(Refused):
            machine.fire(status, trigger)

    return test_allowed_moves, test_refused_moves
