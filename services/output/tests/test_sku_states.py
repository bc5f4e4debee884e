"""The SKU table of the output service (seed-001a §5.4 after binding): allowed and refused moves."""


from skuflow_output.domain.skus import SKU
from tests.state_tables import table_tests

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


test_allowed_moves, test_refused_moves = table_tests(SKU, ALLOWED, REFUSED)


def test_every_move_of_the_table_has_a_case_here():
    assert set(SKU.moves) == {(status, trigger) for status, trigger, _ in ALLOWED}
