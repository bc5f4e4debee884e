"""A model's reading of a page the rules could not read, or doubted (seed-000 §8.1–8.3).

Asked only where the rules are unsure: a page that ended in ``final_fallback``, a B/C page whose
reading has doubts, a page the evaluator scored under PV. Two stages when the page's call cap
leaves two calls (text roles, then attributes), else one. The model's SKUs replace the rules'
only when they are valid enough (``two_stage_invalid_threshold``) and at least as many; each is
placed on the line that prints its model or name, so binding can find its picture. Otherwise
the rules' reading stands, with why.
"""

from __future__ import annotations

from skuflow_contracts.ir import BBox, ParsedPage
from skuflow_contracts.profile import ThresholdProfile
from skuflow_contracts.results import ATTRIBUTE_NAMES, ExtractionMethod, PageClassification
from skuflow_extractor.domain.drafts import SkuDraft
from skuflow_extractor.domain.extraction import CONFIDENCE, Extraction, doubts, normalize
from skuflow_extractor.domain.validity import records
from skuflow_extractor.domain.words import page_lines
from skuflow_llm import SKUAttrResult

DOUBTED_TYPES = ("B", "C")
NOWHERE: BBox = (0.0, 0.0, 0.0, 0.0)


def wants_model(rules: Extraction, classification: PageClassification, evaluation_review: str | None = None) -> bool:
    """Pages the rules could not read, B/C pages whose reading they doubt, and pages the evaluator
    scored under PV (HYBRID)."""
    if rules.method is None:  # a skipped D page or a failed parse: nothing a model could add
        return False
    doubted = classification.page_type in DOUBTED_TYPES and bool(rules.review_reasons)
    return rules.method == "final_fallback" or doubted or evaluation_review is not None


def _placed(value: str, page: ParsedPage) -> list[BBox]:
    """The box of the first printed line (or block) holding ``value``."""
    key = normalize(value)
    printed = [(line.bbox, line.text) for block in page.text_blocks for line in (block.lines or [block])]
    return [box for box, text in printed if key and key in normalize(text)][:1]


def drafts_of(answer: SKUAttrResult, page: ParsedPage) -> list[SkuDraft]:
    drafts = []
    for item in answer.skus:
        draft = SkuDraft("line")
        for name in ATTRIBUTE_NAMES:
            value = item.get(name)
            if value not in (None, ""):
                draft.set(name, str(value), "llm")
        identity = draft.attributes.get("model") or draft.attributes.get("product_name") or ""
        draft.boxes = _placed(identity, page) or [NOWHERE]
        drafts.append(draft)
    return drafts


def adopt(rules: Extraction, answer: SKUAttrResult | None, method: ExtractionMethod, model: str,
          page: ParsedPage, file_hash: str, profile: ThresholdProfile, flagged: bool) -> Extraction:
    drafts = drafts_of(answer, page) if answer else []
    valid = [d for d in drafts if d.has_identity]
    invalid_ratio = 1 - len(valid) / len(drafts) if drafts else 1.0
    # the reading the model must not shrink: the SKUs the reader is sure of (one it flags as unsure is
    # no reason to keep its reading over the model's)
    rules_valid = sum(1 for sku in rules.skus if sku.validity == "valid"
                      and sku.confidence >= profile.extraction.sku_min_confidence)
    if not valid or invalid_ratio > profile.extraction.two_stage_invalid_threshold or len(valid) < rules_valid:
        why = "nothing read" if not valid else f"invalid_ratio={invalid_ratio:.2f}" \
            if invalid_ratio > profile.extraction.two_stage_invalid_threshold else "fewer SKUs than the rules"
        return unavailable(rules, f"llm {model}: {why}")
    skus = records(valid, page=page.page, file_hash=file_hash, confidence=CONFIDENCE[method],
                   required_keys=profile.extraction.required_attribute_keys)
    reasons = doubts(skus, page_lines(page, set()), profile.extraction.sku_min_confidence)
    if flagged:
        reasons.append(f"llm_answer_flagged:{model}")
    return Extraction(method, skus, f"llm:{model}" + (f" after {rules.fallback_reason}" if rules.fallback_reason
                                                        else ""), rules.table, rules.merged_from, reasons)


def unavailable(rules: Extraction, why: str) -> Extraction:
    """The rules' reading, still doubted, with the reason the model did not replace it."""
    return Extraction(rules.method, rules.skus, rules.fallback_reason, rules.table, rules.merged_from,
                      [*rules.review_reasons, why])
