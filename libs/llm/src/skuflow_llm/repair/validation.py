"""Schema validation and anomaly checks per operation (seed-002 §10 ``SchemaValidator``; rules are ours).

Validation fails an answer that does not fit its model (a parse retry follows). Anomalies are answers
that fit but look wrong; any anomaly sends the answer to review. Strict mode (regex repair, medium
injection risk) adds checks that a normal answer may fail without being wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from skuflow_llm.context import Operation
from skuflow_llm.results import (
    ANSWER_MODELS,
    Answer,
    BindingHints,
    ClassifyResult,
    DocumentEvaluation,
    LayoutResult,
    RoleAssignment,
    SKUAttrResult,
)

PAGE_TYPES = {"A", "B", "C", "D"}
LAYOUT_TYPES = {"L1", "L2", "L3", "L4"}
STRICT_MIN_CONFIDENCE = 0.6


def _outside_unit(value: float | None) -> bool:
    return value is not None and not 0.0 <= value <= 1.0


def _evaluation(answer: DocumentEvaluation, strict: bool) -> list[str]:
    flags = [f"score_out_of_range:{s.dimension}" for s in answer.scores if _outside_unit(s.score)]
    return flags + (["no_scores"] if strict and not answer.scores else [])


def _page(answer: ClassifyResult, strict: bool) -> list[str]:
    flags = [] if answer.page_type in PAGE_TYPES else ["unknown_page_type"]
    flags += ["confidence_out_of_range"] if _outside_unit(answer.confidence) else []
    return flags + (["low_confidence"] if strict and answer.confidence < STRICT_MIN_CONFIDENCE else [])


def _roles(answer: RoleAssignment, strict: bool) -> list[str]:
    return ["no_roles"] if not answer.roles else []


def _layout(answer: LayoutResult, strict: bool) -> list[str]:
    flags = [] if answer.layout_type in LAYOUT_TYPES else ["unknown_layout_type"]
    flags += ["confidence_out_of_range"] if _outside_unit(answer.confidence) else []
    return flags + (["low_confidence"] if strict and answer.confidence < STRICT_MIN_CONFIDENCE else [])


def _skus(answer: SKUAttrResult, strict: bool) -> list[str]:
    flags = ["empty_sku"] if any(not any(v not in (None, "", []) for v in sku.values()) for sku in answer.skus) else []
    models = [sku.get("model") for sku in answer.skus if sku.get("model")]
    flags += ["duplicate_model"] if len(models) != len(set(models)) else []
    declared = getattr(answer, "sku_count", None)
    if declared is not None and str(declared).isdigit() and int(declared) != len(answer.skus):
        flags.append("sku_count_mismatch")
    if strict:
        flags += ["no_skus"] if not answer.skus else []
        flags += ["sku_without_model"] if len(models) != len(answer.skus) else []
    return flags


def _bindings(answer: BindingHints, strict: bool) -> list[str]:
    flags = ["confidence_out_of_range"] if any(_outside_unit(b.get("confidence")) for b in answer.bindings
                                               if isinstance(b.get("confidence"), int | float)) else []
    return flags + (["no_reasoning"] if strict and not answer.reasoning else [])


ANOMALY_CHECKS: dict[Operation, Callable[[Any, bool], list[str]]] = {
    "eval_document": _evaluation, "classify_page": _page, "classify_text": _roles, "classify_images": _roles,
    "classify_layout": _layout, "extract_sku_attrs": _skus, "resolve_binding": _bindings,
}


class AnswerValidator:
    def validate(self, data: dict, operation: Operation) -> Answer:
        return ANSWER_MODELS[operation].model_validate(data)

    def check_anomalies(self, answer: Answer, operation: Operation, *, strict: bool = False) -> list[str]:
        flags = ANOMALY_CHECKS[operation](answer, strict)
        if strict and answer.model_extra:
            flags.append("unexpected_fields:" + ",".join(sorted(answer.model_extra)))
        return flags
