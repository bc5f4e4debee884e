"""The SKU table of the output service (seed-001a §5.4 after binding): allowed and refused moves."""

import pytest

from skuflow_output.domain.skus import SKU
from skuflow_platform.states import Refused

ALLOWED = [
    (None, "deliver", "DELIVERED"),
    ("DELIVERED", "import", "IMPORTING"),
    ("IMPORT_FAILED", "import", "IMPORTING"),
    ("IMPORTING", "import", "IMPORTING"),
    ("IMPORTING", "import_ok", "IMPORTED"),
    ("IMPORTING", "import_err", "IMPORT_FAILED"),
    ("DELIVERED", "supersede", "SUPERSEDED"),
    ("IMPORTING", "supersede", "SUPERSEDED"),
    ("IMPORTED", "supersede", "SUPERSEDED"),
    ("IMPORT_FAILED", "supersede", "SUPERSEDED"),
]
REFUSED = [
    ("DELIVERED", "import_ok"),  # only a call under way can succeed
    ("IMPORTED", "import"),  # imported once
    ("IMPORTED", "import_err"),
    ("SUPERSEDED", "import"),  # a replaced SKU is never sent
    ("SUPERSEDED", "supersede"),
    ("DELIVERED", "deliver"),
]


@pytest.mark.parametrize("status, trigger, after", ALLOWED)
def test_allowed_moves(status, trigger, after):
    assert SKU.fire(status, trigger) == after


@pytest.mark.parametrize("status, trigger", REFUSED)
def test_refused_moves(status, trigger):
    with pytest.raises(Refused):
        SKU.fire(status, trigger)


def test_every_move_of_the_table_has_a_case_here():
    assert set(SKU.moves) == {(status, trigger) for status, trigger, _ in ALLOWED}
