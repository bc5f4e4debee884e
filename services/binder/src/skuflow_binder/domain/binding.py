"""SKU–image binding by layout-tiered distance, ambiguity sent to a human (seed-000 §9, T84).

Each SKU's candidates are the deliverable images within the layout's distance threshold, with
confidence 1 − d/threshold. Images are then claimed nearest pair first across the page (the
older seed's ``_resolve_conflicts``), so in a dense grid the photo just above a caption goes to
that caption and not to the caption above it. An image claimed by another SKU is no longer a
rival; if the best two remaining candidates are within ``ambiguity_gap`` the SKU stays unbound
and its top-k go to an annotator ("better unbound than wrongly bound"). SKUs of one variant
group (colours listed under one photo) are bound as one unit and share the image.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from skuflow_contracts.ir import BBox, union
from skuflow_contracts.profile import BindingThresholds
from skuflow_contracts.results import BindingCandidate, BindingRecord, ImageRecord, Layout, SkuRecord

BINDABLE_ROLES = ("PRODUCT_MAIN",)


def bbox_distance(a: BBox, b: BBox) -> float:
    """Shortest distance between two rectangles' edges; 0 when they touch or overlap."""
    dx = max(0.0, b[0] - a[2], a[0] - b[2])
    dy = max(0.0, b[1] - a[3], a[1] - b[3])
    return math.hypot(dx, dy)


def infer_method(sku: BBox, image: BBox, layout: Layout | None) -> str:
    """seed-000 §9 ``_infer_method`` on box centres."""
    if layout == "L2":
        return "grid_alignment"
    dx = abs((sku[0] + sku[2]) / 2 - (image[0] + image[2]) / 2)
    dy = abs((sku[1] + sku[3]) / 2 - (image[1] + image[3]) / 2)
    if dx < 50 and dy > 100:
        return "vertical_stack"
    if dy < 50 and dx > 100:
        return "reading_order"
    return "spatial_proximity"


@dataclass(frozen=True)
class Unit:
    """What binds as one: a single SKU, or every SKU of one variant group."""

    skus: tuple[SkuRecord, ...]

    @property
    def bbox(self) -> BBox:
        return union([s.source_bbox for s in self.skus])


def units_of(skus: Iterable[SkuRecord]) -> list[Unit]:
    groups: dict[str, list[SkuRecord]] = {}
    for sku in skus:
        groups.setdefault(sku.variant_group or sku.sku_id, []).append(sku)
    return [Unit(tuple(members)) for members in groups.values()]


def bind_skus(skus: list[SkuRecord], images: list[ImageRecord], layout: Layout | None,
              thresholds: BindingThresholds) -> list[BindingRecord]:
    threshold = thresholds.distance_threshold(layout)
    bindable = [img for img in images if img.role in BINDABLE_ROLES and not img.is_duplicate]
    units = units_of(skus)
    distances = {(u, img.image_id): bbox_distance(unit.bbox, img.bbox)
                 for u, unit in enumerate(units) for img in bindable}
    claimed: dict[str, int] = {}
    chosen: dict[int, str] = {}
    for (u, image_id), distance in sorted(distances.items(), key=lambda item: item[1]):
        if distance <= threshold and u not in chosen and image_id not in claimed:
            chosen[u], claimed[image_id] = image_id, u
    by_id = {img.image_id: img for img in bindable}
    records = []
    for u, unit in enumerate(units):
        rivals = sorted(((1 - distances[u, img.image_id] / threshold, img) for img in bindable
                         if distances[u, img.image_id] <= threshold and claimed.get(img.image_id, u) == u),
                        key=lambda pair: pair[0], reverse=True)
        best = by_id.get(chosen.get(u, ""))
        records += [_decide(sku, unit, best, rivals, layout, thresholds) for sku in unit.skus]
    return records


def _decide(sku: SkuRecord, unit: Unit, best: ImageRecord | None, rivals: list[tuple[float, ImageRecord]],
            layout: Layout | None, thresholds: BindingThresholds) -> BindingRecord:
    if best is None or not rivals:
        return BindingRecord(sku_id=sku.sku_id, image_id=None, confidence=0.0, method="none")
    top = rivals[0][0]
    method = infer_method(unit.bbox, best.bbox, layout)
    if len(rivals) == 1 or top - rivals[1][0] >= thresholds.ambiguity_gap:
        return BindingRecord(sku_id=sku.sku_id, image_id=best.image_id, confidence=round(top, 4), method=method)
    return BindingRecord(
        sku_id=sku.sku_id, image_id=None, confidence=round(top, 4), is_ambiguous=True, method=method,
        candidates=[BindingCandidate(image_id=img.image_id, confidence=round(conf, 4))
                    for conf, img in rivals[:thresholds.top_k]],
    )
