"""An image's states (seed-001a §5.5, seed-001b §1.2.10) as one table.

The facts behind each move are found in different services (the parser extracts an image and
measures it, the classifier gives it a role, the binder finds its duplicates), and the binder is
where they meet: it records each page's images with the path they took through this table.
Delivery is withheld from duplicates and from logos and decorations; a small image is delivered
with its LOW_QUALITY grade (INV-03's tolerant mode: flagged, never blocked).
"""

from __future__ import annotations

from skuflow_contracts.ir import ImageRegion
from skuflow_contracts.results import ImageRecord
from skuflow_platform.states import Machine

EXTRACTED, QUALITY_ASSESSED, ROLE_CLASSIFIED = "EXTRACTED", "QUALITY_ASSESSED", "ROLE_CLASSIFIED"
DELIVERABLE, NOT_DELIVERABLE = "DELIVERABLE", "NOT_DELIVERABLE"
HIGH, LOW_QUALITY = "HIGH", "LOW_QUALITY"
DELIVERED_ROLES = frozenset({"PRODUCT_MAIN", "DETAIL", "SCENE", "SIZE_CHART"})

IMAGE = Machine(
    entity="image",
    states=(EXTRACTED, QUALITY_ASSESSED, ROLE_CLASSIFIED, DELIVERABLE, NOT_DELIVERABLE),
    final=frozenset({DELIVERABLE, NOT_DELIVERABLE}),
    moves={
        (None, "extract"): EXTRACTED,
        (EXTRACTED, "quality_assess"): QUALITY_ASSESSED,
        (QUALITY_ASSESSED, "role_classify"): ROLE_CLASSIFIED,
        (ROLE_CLASSIFIED, "deliver"): DELIVERABLE,
        (ROLE_CLASSIFIED, "withhold"): NOT_DELIVERABLE,
    },
)


def quality_grade(record: ImageRecord) -> str:
    return LOW_QUALITY if record.quality_warning else HIGH


def deliverable(record: ImageRecord) -> bool:
    return record.role in DELIVERED_ROLES and not record.is_duplicate


def image_path(record: ImageRecord) -> list[tuple[str | None, str, str]]:
    """The moves an image took, from extraction to its delivery verdict."""
    return IMAGE.path(None, ["extract", "quality_assess", "role_classify",
                             "deliver" if deliverable(record) else "withhold"])


def image_row(record: ImageRecord, region: ImageRegion | None) -> dict:
    """The image's row in the binder's ``images`` table: what each state set (INV-03 at QUALITY_ASSESSED)."""
    return {"image_id": record.image_id, "role": record.role, "bbox": list(record.bbox),
            "short_edge": record.short_edge, "quality_grade": quality_grade(record),
            "search_eligible": region.search_eligible if region else False,
            "is_fragmented": region.is_fragmented if region else False,
            "image_hash": region.content_hash if region else None, "is_duplicate": record.is_duplicate,
            "status": image_path(record)[-1][2]}
