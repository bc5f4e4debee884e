"""Disk states (runbook #4): warning, urgent cleanup, and refusing uploads when full."""

import pytest

from skuflow_gateway.domain.retention import FULL, OK, URGENT, WARNING, DiskLimits, disk_state


@pytest.mark.parametrize("ratio, state", [
    (0.10, OK), (0.7499, OK), (0.75, WARNING), (0.84, WARNING), (0.85, URGENT), (0.949, URGENT),
    (0.95, FULL), (1.0, FULL),
])
def test_the_disk_state_by_how_full_it_is(ratio, state):
    assert disk_state(ratio, DiskLimits()) == state

