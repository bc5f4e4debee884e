"""Scoring one document's result against its truth, exactly as GOLDEN_FORMAT §3 says.

Everything is counted, never averaged early: a ``Tally`` per page adds up into any breakdown
(page type, layout, language, document) and the ratios are computed at the very end (micro
averages).
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

ATTRIBUTES = ("model", "product_name", "size", "material", "color", "price")
IOU_THRESHOLD = 0.5


def normalize(value: object) -> str:
    """NFKC, upper-case, all whitespace removed (the SKU key and string-attribute comparison)."""
    return "".join(unicodedata.normalize("NFKC", str(value)).upper().split())


def same_price(predicted: object, truth: object) -> bool:
    try:
        return Decimal(str(predicted).replace(",", "")) == Decimal(str(truth).replace(",", ""))
    except (InvalidOperation, ValueError):
        return False


def iou(a: list[float] | tuple, b: list[float] | tuple) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


@dataclass
class Tally:
    """Counts that add up across pages and documents."""

    pages: int = 0
    sku_matched: int = 0
    sku_predicted: int = 0
    sku_truth: int = 0
    attr_correct: Counter = field(default_factory=Counter)
    attr_total: Counter = field(default_factory=Counter)
    page_type_correct: int = 0
    layout_correct: int = 0
    binding_correct: int = 0
    binding_bound: int = 0
    binding_truth: int = 0
    needs_review: int = 0
    product_pages: int = 0  # truth pages that list products
    silent_losses: int = 0  # product pages with no SKU read and no review asked for
    error_pages: int = 0  # pages with a missed, extra or wrongly read SKU
    flagged_error_pages: int = 0  # … of which the result flags for review

    def __iadd__(self, other: Tally) -> Tally:
        for name in ("pages", "sku_matched", "sku_predicted", "sku_truth", "page_type_correct",
                     "layout_correct", "binding_correct", "binding_bound", "binding_truth", "needs_review",
                     "product_pages", "silent_losses", "error_pages", "flagged_error_pages"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.attr_correct.update(other.attr_correct)
        self.attr_total.update(other.attr_total)
        return self

    def metrics(self) -> dict:
        precision = _ratio(self.sku_matched, self.sku_predicted)
        recall = _ratio(self.sku_matched, self.sku_truth)
        f1 = None if precision is None or recall is None else (
            2 * precision * recall / (precision + recall) if precision + recall else 0.0)
        return {
            "pages": self.pages,
            "sku": {"matched": self.sku_matched, "predicted": self.sku_predicted, "truth": self.sku_truth,
                    "precision": precision, "recall": recall, "f1": None if f1 is None else round(f1, 4)},
            "attributes": {name: {"correct": self.attr_correct[name], "total": self.attr_total[name],
                                  "accuracy": _ratio(self.attr_correct[name], self.attr_total[name])}
                           for name in ATTRIBUTES if self.attr_total[name]},
            "page_type_accuracy": _ratio(self.page_type_correct, self.pages),
            "layout_accuracy": _ratio(self.layout_correct, self.pages),
            "binding": {"correct": self.binding_correct, "bound": self.binding_bound,
                        "truth": self.binding_truth, "precision": _ratio(self.binding_correct, self.binding_bound),
                        "recall": _ratio(self.binding_correct, self.binding_truth)},
            "human_intervention_rate": _ratio(self.needs_review, self.pages),
            "silent_loss": {"pages": self.silent_losses, "product_pages": self.product_pages,
                            "rate": _ratio(self.silent_losses, self.product_pages)},
            "review_flag": {"error_pages": self.error_pages, "flagged_error_pages": self.flagged_error_pages,
                            "flagged_pages": self.needs_review,
                            "precision": _ratio(self.flagged_error_pages, self.needs_review),
                            "recall": _ratio(self.flagged_error_pages, self.error_pages)},
        }


def _ratio(part: int, whole: int) -> float | None:
    """None when there is nothing to measure (no predictions, no truth): not the same as 0."""
    return round(part / whole, 4) if whole else None


def sku_key_attribute(truth_sku: dict) -> str:
    return "model" if truth_sku.get("model") else "product_name"


def _attributes_of(predicted_sku: dict) -> dict:
    return predicted_sku.get("attributes") or {}


def score_page(truth_page: dict, predicted_page: dict | None) -> Tally:
    """Score one page that is not uncertain; a missing predicted page predicts nothing."""
    predicted_page = predicted_page or {}
    flagged = bool(predicted_page.get("needs_review", True))
    tally = Tally(pages=1, needs_review=int(flagged))
    tally.page_type_correct = int(predicted_page.get("page_type") == truth_page.get("page_type"))
    tally.layout_correct = int(predicted_page.get("layout") == truth_page.get("layout"))
    candidates = [s for s in predicted_page.get("skus", []) if s.get("validity") == "valid"]
    tally.sku_predicted = len(candidates)
    tally.sku_truth = len(truth_page.get("skus", []))
    images = {i["image_id"]: i["bbox"] for i in predicted_page.get("images", [])}
    bound = {b["sku_id"]: b.get("image_id") for b in predicted_page.get("bindings", []) if b.get("image_id")}
    wrong_attributes = 0
    for truth, match in _pairs(truth_page.get("skus", []), candidates):
        tally.sku_matched += 1
        wrong_attributes += _score_attributes(tally, truth, _attributes_of(match))
        if truth.get("image_bbox"):
            tally.binding_truth += 1
            image_id = bound.get(match.get("sku_id"))
            if image_id:
                tally.binding_bound += 1
                tally.binding_correct += int(image_id in images and
                                             iou(images[image_id], truth["image_bbox"]) >= IOU_THRESHOLD)
    tally.product_pages = int(bool(truth_page.get("skus")))
    tally.silent_losses = int(tally.product_pages and not candidates and not flagged)
    tally.error_pages = int(tally.sku_matched < max(tally.sku_truth, tally.sku_predicted) or wrong_attributes > 0)
    tally.flagged_error_pages = int(tally.error_pages and flagged)
    return tally


def _pairs(truths: list[dict], candidates: list[dict]) -> list[tuple[dict, dict]]:
    """Truth SKUs and the predictions they match, each at most once, by key. A key printed on several
    rows ('Жумрак' at 13763 and at 16648) first pairs the rows that agree on every attribute, so the
    order rows come out in does not decide which of them is right."""
    unmatched, pairs, waiting = list(candidates), [], list(truths)
    for exact in (True, False):
        for truth in list(waiting):
            key_attr = sku_key_attribute(truth)
            key = normalize(truth.get(key_attr) or "")
            match = next((p for p in unmatched if normalize(_attributes_of(p).get(key_attr) or "") == key
                          and (not exact or _agrees(truth, _attributes_of(p)))), None)
            if match is not None:
                unmatched.remove(match)
                waiting.remove(truth)
                pairs.append((truth, match))
    return pairs


def _agrees(truth: dict, predicted: dict) -> bool:
    return all(_correct(name, predicted.get(name), truth[name]) for name in ATTRIBUTES if truth.get(name) is not None)


def _correct(name: str, got: object, expected: object) -> bool:
    if got is None:
        return False
    return same_price(got, expected) if name == "price" else normalize(got) == normalize(expected)


def _score_attributes(tally: Tally, truth: dict, predicted: dict) -> int:
    """Count the matched SKU's attributes; return how many were read wrong."""
    wrong = 0
    for name in ATTRIBUTES:
        expected = truth.get(name)
        if expected is None:
            continue
        tally.attr_total[name] += 1
        correct = _correct(name, predicted.get(name), expected)
        tally.attr_correct[name] += int(correct)
        wrong += int(not correct)
    return wrong


@dataclass(frozen=True)
class ScoredPage:
    document: str
    language: str
    page_type: str
    layout: str
    tally: Tally
    source_kind: str = "born-digital"
    split: str = "none"


def score_document(name: str, truth: dict, result: dict | None) -> list[ScoredPage]:
    """One ScoredPage per page of the truth that is not uncertain."""
    predicted = {p["page"]: p for p in (result or {}).get("pages", [])}
    return [ScoredPage(name, truth.get("language") or "unknown", page.get("page_type") or "none",
                       page.get("layout") or "none", score_page(page, predicted.get(page["page"])),
                       truth.get("source_kind") or "born-digital", truth.get("split") or "none")
            for page in truth.get("pages", []) if not page.get("uncertain")]
