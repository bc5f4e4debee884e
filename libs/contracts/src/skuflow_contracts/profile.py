"""Threshold profiles: every rule and threshold of classification, extraction and binding.

A job is frozen to the profile named by its ``config_version`` when it is created (INV-09), and
every page event carries that name, so a page is judged by the same numbers however late it is
processed. Defaults are the seeds' values (seed-000 §7–§11, §14; seed-001a §3.8, §7.14).
Profiles are code, versioned by name: a new profile is a new entry in ``PROFILES``, never an edit.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from skuflow_contracts.envelope import Contract

Severity = Literal["info", "warning", "error"]
RuleType = Literal["required_field", "range_check", "regex_match", "max_count"]


class InvariantViolation(ValueError):
    """A profile that breaks an invariant, naming it (``invariant_id``) for whoever refuses the profile."""

    def __init__(self, invariant_id: str, rule: str) -> None:
        super().__init__(f"{invariant_id}: {rule}")
        self.invariant_id = invariant_id


class ClassificationThresholds(Contract):
    page_type_min_confidence: float = 0.7
    # Routing score thresholds, asserted B < PV < A (INV-01); used by the evaluator's router.
    b_threshold: float = 0.4
    pv_threshold: float = 0.6
    a_threshold: float = 0.8
    decoration_area_share: float = Field(0.01, description="images below this share of the page are ornaments")
    margin_share: float = Field(0.08, description="top/bottom bands where headers, footers and logos live")


class ExtractionThresholds(Contract):
    two_stage_invalid_threshold: float = 0.3
    sku_min_confidence: float = Field(0.65, description="an SKU read with less confidence sends its page to review")
    required_attribute_keys: tuple[str, ...] = ("model", "product_name", "size", "material", "color", "price")
    row_tolerance: float = Field(4.0, description="points: cells whose centres differ less share a row")


class BindingThresholds(Contract):
    distance_thresholds: dict[str, float] = Field(default_factory=lambda: {"L1": 200, "L2": 100, "L3": 150, "L4": 80})
    default_distance_threshold: float = 150.0
    ambiguity_gap: float = 0.2
    top_k: int = 3

    def distance_threshold(self, layout: str | None) -> float:
        return self.distance_thresholds.get(layout or "", self.default_distance_threshold)


class PrescanRules(Contract):
    """seed-001a §3.3 ``PrescanRuleConfig``: what makes a document blank or hard before it is read."""

    all_blank_reject: bool = Field(True, description="BR-25: an all-blank document is degraded at once")
    ocr_rate_penalty_threshold: float = Field(0.1, description="share of pages with a usable text layer below "
                                                               "which the document is penalised")
    ocr_rate_penalty_weight: float = 0.15
    no_images_penalty_weight: float = Field(0.10, description="no picture anywhere: deducts, never rejects")
    min_text_chars_for_blank: int = Field(10, description="BR-02: fewer characters (and no picture) is blank")


class EvaluationRules(Contract):
    """How the evaluator scores a document and routes it (seed-001a §7.7–7.8)."""

    dimension_weights: dict[str, float] = Field(default_factory=lambda: {
        "text_readability": 0.35, "layout_quality": 0.30, "image_quality": 0.20, "structure_consistency": 0.15})
    prescan: PrescanRules = Field(default_factory=PrescanRules)
    score_variance_threshold: float = Field(0.03, description="page scores spread wider than this force HYBRID")
    full_sample_below: int = Field(40, description="documents with fewer pages are scored on every page")
    sample_size: int = Field(20, description="pages scored, spread over a longer document")
    ocr_dpi: int = Field(200, description="resolution the parser renders a page at to OCR it")
    llm_share: float = Field(0.5, ge=0, le=1, description="weight of a model's scores when an LLM is configured")
    llm_screenshots: int = Field(6, ge=1, description="sampled pages shown to the model")


class ValidationRule(Contract):
    """A declarative category rule (seed-001a §7.14): checked by name, never by ``eval``."""

    name: str
    rule_type: RuleType
    params: dict[str, str | float | int] = Field(default_factory=dict)
    severity: Severity = "warning"


class CategorySchema(Contract):
    category: str
    required_fields: tuple[str, ...] = ()
    optional_fields: tuple[str, ...] = ()
    validation_rules: tuple[ValidationRule, ...] = ()


class ThresholdProfile(Contract):
    version: str
    category: str = "general"
    confidence_weights: dict[str, float] = Field(
        default_factory=lambda: {"text": 0.4, "structure": 0.3, "image": 0.3})
    classification: ClassificationThresholds = Field(default_factory=ClassificationThresholds)
    extraction: ExtractionThresholds = Field(default_factory=ExtractionThresholds)
    binding: BindingThresholds = Field(default_factory=BindingThresholds)
    evaluation: EvaluationRules = Field(default_factory=EvaluationRules)
    category_schemas: tuple[CategorySchema, ...] = ()
    review_on_warning: bool = Field(True, description="warning-severity rules send a page to review")

    @model_validator(mode="after")
    def _invariants(self) -> ThresholdProfile:
        c = self.classification
        if not c.b_threshold < c.pv_threshold < c.a_threshold:
            raise InvariantViolation("INV-01", "thresholds must satisfy B < PV < A")
        if abs(sum(self.confidence_weights.values()) - 1.0) >= 0.001:
            raise InvariantViolation("INV-02", "confidence weights must sum to 1")
        if abs(sum(self.evaluation.dimension_weights.values()) - 1.0) >= 0.001:
            raise InvariantViolation("INV-02", "evaluation dimension weights must sum to 1")
        return self

    def category_schema(self) -> CategorySchema | None:
        return next((s for s in self.category_schemas if s.category == self.category), None)


class UnknownProfile(LookupError):
    """An event names a config_version this build does not know: a deployment error, not bad data."""


PROFILES: dict[str, ThresholdProfile] = {"v1": ThresholdProfile(version="v1")}


def profile_for(config_version: str) -> ThresholdProfile:
    try:
        return PROFILES[config_version]
    except KeyError:
        raise UnknownProfile(f"no threshold profile {config_version!r}; known: {sorted(PROFILES)}") from None
