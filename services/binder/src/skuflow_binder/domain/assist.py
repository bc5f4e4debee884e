"""Ambiguous bindings settled by a model before they go to a person (seed-000 §9, seed-002 C17).

The model sees each ambiguous SKU with its top candidates; a pick is adopted only when it is one
of those candidates, at least ``MIN_CONFIDENCE`` sure, and the adapter did not flag the answer.
A page whose last ambiguity is settled no longer needs review for it.
"""

from __future__ import annotations

from skuflow_contracts.results import BindingRecord, PageResult
from skuflow_llm import BindingHints

MIN_CONFIDENCE = 0.7
AMBIGUOUS = "ambiguous_binding"


def ambiguous_candidates(result: PageResult) -> list[dict]:
    boxes = {image.image_id: image.bbox for image in result.images}
    skus = {sku.sku_id: sku for sku in result.skus}
    return [{"sku_id": b.sku_id, "model": skus[b.sku_id].attributes.model if b.sku_id in skus else None,
             "sku_bbox": skus[b.sku_id].source_bbox if b.sku_id in skus else None,
             "candidates": [{"image_id": c.image_id, "bbox": boxes.get(c.image_id), "confidence": c.confidence}
                            for c in b.candidates]}
            for b in result.bindings if b.is_ambiguous]


def _settled(binding: BindingRecord, picks: dict[str, tuple[str, float]]) -> BindingRecord:
    pick = picks.get(binding.sku_id)
    allowed = {c.image_id for c in binding.candidates}
    if not binding.is_ambiguous or pick is None or pick[0] not in allowed or pick[1] < MIN_CONFIDENCE:
        return binding
    return binding.model_copy(update={"image_id": pick[0], "confidence": round(min(pick[1], 1.0), 4),
                                      "is_ambiguous": False, "method": "llm"})


def resolve(result: PageResult, hints: BindingHints | None, flagged: bool) -> PageResult:
    if hints is None or flagged:
        return result
    picks = {}
    for item in hints.bindings:
        try:
            picks[str(item["sku_id"])] = (str(item["image_id"]), float(item.get("confidence", 0.0)))
        except (KeyError, TypeError, ValueError):
            continue  # a malformed pick settles nothing
    bindings = [_settled(b, picks) for b in result.bindings]
    reasons = list(result.review_reasons)
    if AMBIGUOUS in reasons and not any(b.is_ambiguous for b in bindings):
        reasons.remove(AMBIGUOUS)
    return result.model_copy(update={"bindings": bindings, "review_reasons": reasons, "needs_review": bool(reasons),
                                     "status": "HUMAN_QUEUED" if reasons else "AI_COMPLETED"})
