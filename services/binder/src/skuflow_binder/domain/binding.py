"""SKU–image binding by layout-tiered distance, with ambiguity sent to a human (seed §9, T84).

"Better unbound than wrongly bound": when the two best images are within AMBIGUITY_GAP of each
other the SKU stays unbound and its top-3 candidates go to an annotator.
"""

from __future__ import annotations

import math

from skuflow_contracts.ir import BBox
from skuflow_contracts.results import BindingCandidate, BindingRecord, ImageRecord, Layout, SkuRecord

DISTANCE_THRESHOLDS: dict[str, float] = {"L1": 200, "L2": 100, "L3": 150, "L4": 80}
DEFAULT_THRESHOLD = 150.0
AMBIGUITY_GAP = 0.2
TOP_K = 3
BINDABLE_ROLES = ("PRODUCT_MAIN", "DETAIL")


def bbox_distance(a: BBox, b: BBox) -> float:
    """Shortest distance between two rectangles' edges; 0 when they touch or overlap."""
    dx = max(0.0, b[0] - a[2], a[0] - b[2])
    dy = max(0.0, b[1] - a[3], a[1] - b[3])
    return math.hypot(dx, dy)


def infer_method(sku: BBox, image: BBox, layout: Layout | None) -> str:
    if layout == "L2":
        return "grid_alignment"
    dx = abs((sku[0] + sku[2]) / 2 - (image[0] + image[2]) / 2)
    dy = abs((sku[1] + sku[3]) / 2 - (image[1] + image[3]) / 2)
    if dx < 50 and dy > 100:
        return "vertical_stack"
    if dy < 50 and dx > 100:
        return "reading_order"
    return "spatial_proximity"


def bind_sku(sku: SkuRecord, images: list[ImageRecord], layout: Layout | None) -> BindingRecord:
    threshold = DISTANCE_THRESHOLDS.get(layout or "", DEFAULT_THRESHOLD)
    candidates = sorted(
        ((1.0 - d / threshold, image) for image in images
         if image.role in BINDABLE_ROLES and not image.is_duplicate
         and (d := bbox_distance(sku.source_bbox, image.bbox)) <= threshold),
        key=lambda pair: pair[0], reverse=True,
    )
    if not candidates:
        return BindingRecord(sku_id=sku.sku_id, image_id=None, confidence=0.0, method="none")
    best_conf, best = candidates[0]
    method = infer_method(sku.source_bbox, best.bbox, layout)
    if len(candidates) == 1 or best_conf - candidates[1][0] >= AMBIGUITY_GAP:
        return BindingRecord(sku_id=sku.sku_id, image_id=best.image_id, confidence=round(best_conf, 4),
                             method=method)
    return BindingRecord(
        sku_id=sku.sku_id, image_id=None, confidence=round(best_conf, 4), is_ambiguous=True,
        method=method,
        candidates=[BindingCandidate(image_id=img.image_id, confidence=round(conf, 4))
                    for conf, img in candidates[:TOP_K]],
    )
