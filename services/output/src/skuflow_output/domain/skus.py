"""An SKU's state once the output service has it (seed-001a §5.4, the part after binding), as one
table: delivered (published on ``sku.delivered``; the seed's BOUND as it reaches output), being
imported, imported or failed to import (with the HTTP importer), or superseded by a review.

The states before (extracted, valid, partial, confirmed, rejected) are the extractor's validity and
the review's reading, carried on the SKU record; they have no row here. Where this departs from the
seed: an imported SKU can still be superseded, because a later review does replace it downstream
(``sku.superseded`` names it, and the review's revision is imported under new keys). A newer revision
of a page supersedes only the SKUs whose content it changes (``content_key``): a SKU a review left
as it was keeps its delivery and its key, so approving a page unchanged sends nothing new downstream.
"""

from __future__ import annotations

import hashlib
import json

from skuflow_contracts.results import ImageRecord, SkuRecord
from skuflow_platform.states import Machine

REVIEW_STATE = frozenset({"confidence", "status"})  # how sure the reading was and whether it waits: no content

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


def content_key(sku: SkuRecord, images: list[ImageRecord]) -> str:
    """What a delivered SKU says downstream, as one hash: every value of its record but its review
    state, and the images bound to it."""
    values = sku.model_dump(mode="json", exclude=set(REVIEW_STATE))
    text = json.dumps([values, sorted(image.image_id for image in images)], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()
