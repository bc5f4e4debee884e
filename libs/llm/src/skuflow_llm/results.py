"""Validated answers per operation (seed-002 §5/§6) and the outcome of one adapter call."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from skuflow_llm.context import Operation


class Answer(BaseModel):
    model_config = ConfigDict(extra="allow")


class Score(Answer):
    dimension: str
    score: float
    overall: float = 0.0
    evidence: str | None = None


class DocumentEvaluation(Answer):
    scores: list[Score] = Field(default_factory=list)


class ClassifyResult(Answer):
    page_type: str
    confidence: float
    layout_type: str | None = None
    evidence: str | None = None


class RoleAssignment(Answer):
    """Roles of text blocks or images, in the order they were given."""

    roles: list[str] = Field(default_factory=list)


class LayoutResult(Answer):
    layout_type: str
    grid_pattern: str | None = None
    confidence: float = 0.0


class SKUAttrResult(Answer):
    skus: list[dict[str, Any]] = Field(default_factory=list)
    extraction_method: str = "llm"
    raw_token_count: int = 0


class BindingHints(Answer):
    bindings: list[dict[str, Any]] = Field(default_factory=list)
    reasoning: str | None = None


ANSWER_MODELS: dict[Operation, type[Answer]] = {
    "eval_document": DocumentEvaluation,
    "classify_page": ClassifyResult,
    "classify_text": RoleAssignment,
    "classify_images": RoleAssignment,
    "classify_layout": LayoutResult,
    "extract_sku_attrs": SKUAttrResult,
    "resolve_binding": BindingHints,
}

AnswerT = TypeVar("AnswerT", bound=Answer)


class ExecuteResult(BaseModel, Generic[AnswerT]):
    """An answer with how it was obtained. ``answer`` is None when the route needs no LLM (RULE_ENGINE, SKIP).

    ``needs_review`` is true after a regex repair (C2), an anomaly, or a high injection risk (C7): the caller
    must not store the answer without a human.
    """

    answer: AnswerT | None
    route: str
    model_used: str
    was_downgraded: bool = False
    downgrade_reason: str | None = None
    budget_remaining: float = 0.0
    needs_review: bool = False
    parse_method: str | None = None
    anomaly_flags: list[str] = Field(default_factory=list)
    injection_flags: list[str] = Field(default_factory=list)
    images_truncated: bool = False
    images_used: int = 0
    calls_made: int = 0
    prompt_version: str | None = None
    cost_usd: float = 0.0

    @property
    def skipped(self) -> bool:
        return self.answer is None
