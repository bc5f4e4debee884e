"""The evaluator's report on a document (seed-001a §3.3 ``EvaluationReport``): why it was routed as it was."""

from __future__ import annotations

from pydantic import Field

from skuflow_contracts.envelope import Contract
from skuflow_contracts.results import Route


class Sampling(Contract):
    pages: list[int] = Field(default_factory=list, description="pages scored for the document's C_doc")
    variance: float = 0.0


class EvaluationReport(Contract):
    route: Route
    c_doc: float
    route_reason: str
    degrade_reason: str | None = None
    prescan_penalties: list[dict[str, str | float]] = Field(default_factory=list)
    prescan_metrics: dict[str, float] = Field(default_factory=dict)
    blank_pages: list[int] = Field(default_factory=list)
    dimension_scores: dict[str, float] = Field(default_factory=dict)
    weights_snapshot: dict[str, float] = Field(default_factory=dict)
    thresholds: dict[str, float] = Field(default_factory=dict)
    sampling: Sampling = Field(default_factory=Sampling)
    page_scores: dict[int, float] = Field(default_factory=dict, description="every page scored (HYBRID: all pages)")
    review_pages: dict[int, str] = Field(default_factory=dict,
                                         description="HYBRID: pages under PV, reviewed after extraction, and why")
    model_used: str = "deterministic"
    llm_cost_usd: float = 0.0
