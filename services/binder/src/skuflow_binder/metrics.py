"""Binder metrics (seed-000 §6: images removed by dedup, by role and scope)."""

from prometheus_client import Counter

from skuflow_binder.domain.dedup import dedup_scope
from skuflow_contracts.results import ImageRecord

IMAGES_DEDUPED = Counter("image_dedup_removed_total", "Images flagged as duplicates before binding",
                         ["role", "scope"])


def count_duplicates(images: list[ImageRecord]) -> None:
    for image in images:
        if image.is_duplicate:
            IMAGES_DEDUPED.labels(image.role, dedup_scope(image.role)).inc()
