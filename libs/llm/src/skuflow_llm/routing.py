"""Which model answers a call: operation × page type × complexity (seed-002 §5), then the downgrades.

Order: repeated validation failures (G1) → the standard model; ``force_model`` → that model; otherwise
the table. An exhausted budget turns a primary-model route into the standard model, forced or not (C5).
``routing_mode="primary"`` replaces the table by "always the primary model"; the downgrades still apply.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from skuflow_llm.context import LLMCallContext
from skuflow_llm.observability import metrics

log = logging.getLogger(__name__)

PRIMARY = "GEMINI_PRO"
STANDARD = "QWEN_STANDARD"
RULE_ENGINE = "RULE_ENGINE"
SKIP = "SKIP"
NO_LLM_ROUTES = (RULE_ENGINE, SKIP)
Complexity = Literal["simple", "complex"]

ROUTING_TABLE: dict[str, dict[tuple[str, str], str]] = {
    "classify_page": {("A", "any"): RULE_ENGINE, ("B", "simple"): STANDARD, ("B", "complex"): PRIMARY,
                      ("C", "simple"): STANDARD, ("C", "complex"): PRIMARY, ("D", "any"): SKIP},
    "extract_sku_attrs": {("A", "simple"): STANDARD, ("A", "complex"): PRIMARY, ("B", "simple"): STANDARD,
                          ("B", "complex"): PRIMARY, ("C", "simple"): STANDARD, ("C", "complex"): PRIMARY,
                          ("D", "any"): SKIP},
    "eval_document": {("any", "any"): PRIMARY},
    "resolve_binding": {("any", "any"): STANDARD},
}
DEFAULT_ROUTES: dict[Complexity, str] = {"simple": STANDARD, "complex": PRIMARY}
COMPLEX_SCORE = 3


@dataclass(frozen=True)
class ModelConfig:
    model: str
    max_tokens: int
    temperature: float


@dataclass(frozen=True)
class RouteDecision:
    route: str
    complexity: Complexity
    downgrade_reason: Literal["budget", "semantic"] | None = None

    @property
    def needs_llm(self) -> bool:
        return self.route not in NO_LLM_ROUTES


def assess_complexity(features: Mapping[str, Any]) -> Complexity:
    score = (2 * bool(features.get("has_fragmented_images")) + 2 * (features.get("ocr_ratio", 0) > 0.3)
             + bool(features.get("multi_column")) + (features.get("text_block_count", 0) > 20))
    return "complex" if score >= COMPLEX_SCORE else "simple"


def table_route(operation: str, page_type: str, complexity: Complexity) -> str:
    table = ROUTING_TABLE.get(operation, {})
    for key in ((page_type, complexity), (page_type, "any"), ("any", "any")):
        if key in table:
            return table[key]
    return DEFAULT_ROUTES[complexity]


class LLMRouter:
    def __init__(self, configs: Mapping[str, ModelConfig], *, mode: Literal["table", "primary"] = "table",
                 semantic_failure_threshold: int = 5) -> None:
        self.configs = configs
        self.mode = mode
        self.semantic_failure_threshold = semantic_failure_threshold

    def config(self, route: str) -> ModelConfig:
        return self.configs[route]

    def select(self, ctx: LLMCallContext, *, budget_ok: bool) -> RouteDecision:
        page_type = ctx.page_type or "C"
        complexity = assess_complexity(ctx.features)
        decision = self._decide(ctx, page_type, complexity, budget_ok)
        metrics.ROUTES.labels(ctx.operation, page_type, complexity, decision.route).inc()
        return decision

    def _decide(self, ctx: LLMCallContext, page_type: str, complexity: Complexity, budget_ok: bool) -> RouteDecision:
        if ctx.semantic_failure_count >= self.semantic_failure_threshold:
            metrics.SEMANTIC_DEGRADE.inc()
            log.warning("semantic_degrade", extra={"fields": {"count": ctx.semantic_failure_count}})
            return RouteDecision(STANDARD, complexity, "semantic")
        if ctx.force_model:
            route = self._route_of_model(ctx.force_model)
        elif self.mode == "primary":
            route = PRIMARY
        else:
            route = table_route(ctx.operation, page_type, complexity)
        if route == PRIMARY and not budget_ok:
            metrics.BUDGET_DOWNGRADE.inc()
            if ctx.force_model:
                log.warning("force_model_budget_override", extra={"fields": {"force_model": ctx.force_model}})
            return RouteDecision(STANDARD, complexity, "budget")
        return RouteDecision(route, complexity)

    def _route_of_model(self, model: str) -> str:
        """A route key, or a configured model name; otherwise the seed's rule (a Gemini name → primary)."""
        if model in self.configs:
            return model
        for route, config in self.configs.items():
            if config.model == model:
                return route
        return PRIMARY if "gemini" in model.lower() else STANDARD
