"""An SKU's state once the output service has it (seed-001a §5.4, the part after binding), as one
table: delivered (published on ``sku.delivered``; the seed's BOUND as it reaches output), being
imported, imported or failed to import (with the HTTP importer), or superseded by a review.

The states before (extracted, valid, partial, confirmed, rejected) are the extractor's validity and
the review's reading, carried on the SKU record; they have no row here. Where this departs from the
seed: an imported SKU can still be superseded, because a later review does replace it downstream
(``sku.superseded`` names it, and the review's revision is imported under new keys).
"""

from __future__ import annotations

from skuflow_platform.states import Machine

DELIVERED, IMPORTING, IMPORTED, IMPORT_FAILED, SUPERSEDED = (
    "DELIVERED", "IMPORTING", "IMPORTED", "IMPORT_FAILED", "SUPERSEDED")

SKU = Machine(
    entity="sku",
    states=(DELIVERED, IMPORTING, IMPORTED, IMPORT_FAILED, SUPERSEDED),
    final=frozenset({SUPERSEDED}),
    moves={
        (None, "deliver"): DELIVERED,
        (DELIVERED, "import"): IMPORTING,
        (IMPORT_FAILED, "import"): IMPORTING,  # called again
        (IMPORTING, "import"): IMPORTING,  # a call whose answer was lost (a crash) is made again
        (IMPORTING, "import_ok"): IMPORTED,
        (IMPORTING, "import_err"): IMPORT_FAILED,
        **{(status, "supersede"): SUPERSEDED for status in (DELIVERED, IMPORTING, IMPORTED, IMPORT_FAILED)},
    },
)
