"""SKU validity (INV-06, seed-000 §8.4), null-filled keys (INV-12) and stable ids (§8.5)."""

from __future__ import annotations

from skuflow_contracts.ids import sku_id
from skuflow_contracts.results import SkuAttributes, SkuRecord, SkuStatus
from skuflow_extractor.domain.drafts import SkuDraft

SPEC_FIELDS = ("size", "material", "color", "price")
READING_ORDER_BAND = 10.0  # points: SKUs whose tops differ less than this are on one line


def judge(attributes: SkuAttributes, custom: dict[str, str]) -> tuple[str, SkuStatus, str | None]:
    """(validity, status, quality_warning): identity AND spec → valid; identity alone → valid with
    ``missing_specifications``; no identity → invalid; custom attributes → PENDING_CONFIRMATION."""
    if not (attributes.model or attributes.product_name):
        return "invalid", "REJECTED", None
    status: SkuStatus = "PENDING_CONFIRMATION" if custom else "IMPORT_READY"
    has_spec = any(getattr(attributes, name) for name in SPEC_FIELDS)
    return "valid", status, None if has_spec else "missing_specifications"


def records(drafts: list[SkuDraft], *, page: int, file_hash: str, confidence: float,
            required_keys: tuple[str, ...]) -> list[SkuRecord]:
    """Validity first, then ids in reading order: (top, left) with tops banded so one printed line
    of SKUs reads left to right. An SKU's confidence is its method's, scaled by its own evidence."""
    ordered = sorted(drafts, key=lambda d: (round(d.bbox[1] / READING_ORDER_BAND), d.bbox[0]))
    out = []
    for seq, draft in enumerate(ordered, start=1):
        attributes = SkuAttributes(**{key: draft.attributes.get(key) for key in required_keys})
        validity, status, warning = judge(attributes, draft.custom)
        out.append(SkuRecord(
            sku_id=sku_id(file_hash, page, seq), validity=validity, status=status, attributes=attributes,
            custom_attributes=draft.custom, source_bbox=draft.bbox, confidence=round(confidence * draft.evidence, 3),
            raw_attributes=draft.raw,
            quality_warning=warning, attribute_source=draft.source, origin=draft.origin,
            variant_group=f"{file_hash[:8]}_p{page:02d}_{draft.variant_group}" if draft.variant_group else None,
        ))
    return out
