"""When the classifier is unsure of a page's type, a model's answer may settle it (seed-000 §7, seed-001a §7.11).

A model is asked only about a page the classifier sends to review: under ``page_type_min_confidence`` that it
lists products, or that it does not (or a page called D that the rules doubted);
its answer is adopted when it is itself at least that sure and the adapter did not flag it (repair,
anomaly, injection); otherwise the page keeps the classifier's reading and stays in review, with the
reason recorded.
"""

from __future__ import annotations

from typing import get_args

from skuflow_contracts.results import Layout, PageClassification, PageType
from skuflow_llm import ClassifyResult

PAGE_TYPES, LAYOUTS = set(get_args(PageType)), set(get_args(Layout))


def adopt(classified: PageClassification, answer: ClassifyResult | None, model: str, threshold: float,
          flagged: bool) -> PageClassification:
    if answer is None or flagged or answer.page_type not in PAGE_TYPES or answer.confidence < threshold:
        why = "flagged by the adapter" if flagged else "not sure enough" if answer else "no answer"
        return classified.model_copy(update={"reason": f"{classified.reason}; llm {model}: {why}"})
    layout = answer.layout_type if answer.layout_type in LAYOUTS else classified.layout
    return classified.model_copy(update={
        "page_type": answer.page_type, "page_type_confidence": round(min(answer.confidence, 1.0), 4),
        "layout": None if answer.page_type == "D" else layout, "needs_review": False,
        "reason": f"llm {model}: {answer.evidence or answer.page_type} "
                  f"(classifier: {classified.page_type} {classified.reason})",
        "detail": {**classified.detail, "llm": {"model": model, "page_type": answer.page_type,
                                                "confidence": answer.confidence}}})


def unavailable(classified: PageClassification, error: Exception) -> PageClassification:
    return classified.model_copy(update={"reason": f"{classified.reason}; llm unavailable ({type(error).__name__})"})
