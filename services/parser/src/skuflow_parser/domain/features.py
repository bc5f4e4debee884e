"""Page features (seed-000 §1.1 FeatureExtractor) that the classifier and the router read."""

from __future__ import annotations

from skuflow_contracts.ir import BBox, TextBlock
from skuflow_parser.domain.images import picture_share

COLUMN_TOLERANCE = 20.0


def _columns(blocks: list[TextBlock]) -> int:
    lefts: list[float] = []
    for left in sorted(b.bbox[0] for b in blocks):
        if not lefts or left - lefts[-1] > COLUMN_TOLERANCE:
            lefts.append(left)
    return len(lefts)


def page_features(blocks: list[TextBlock], picture_boxes: list[BBox], images: list, width: float, height: float,
                  backend: str) -> dict[str, float]:
    chars = sum(len(b.text) for b in blocks)
    return {
        "text_density": round(chars / (width * height) * 10_000, 3),  # characters per 100×100 pt
        "image_ratio": round(picture_share(picture_boxes, width, height), 4),
        "text_block_count": float(len(blocks)),
        "image_count": float(len(picture_boxes)),
        "ocr_ratio": 1.0 if backend == "ocr" else 0.0,
        "multi_column": float(_columns(blocks) >= 2),
        "fragmented_images": float(sum(1 for placed in images if placed.region.is_fragmented)),
    }
