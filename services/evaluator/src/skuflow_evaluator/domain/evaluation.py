"""One document's evaluation (seed-001a §7.7–7.8): prescan, sample, score, route, and for HYBRID
the page-level scores of every page (the sampled ones reused) that decide which pages people review."""

from __future__ import annotations

from collections.abc import Callable

from skuflow_contracts.evaluation import EvaluationReport, Sampling
from skuflow_contracts.profile import ThresholdProfile
from skuflow_evaluator.domain.features import PageFeatures, PageGlance
from skuflow_evaluator.domain.prescan import PrescanResult, prescan
from skuflow_evaluator.domain.routing import RoutingDecision, all_blank, decide
from skuflow_evaluator.domain.sampling import select_pages
from skuflow_evaluator.domain.scoring import c_doc, score_document, score_pages

Measure = Callable[[list[int]], list[PageFeatures]]


def evaluate(glances: list[PageGlance], measure: Measure, profile: ThresholdProfile) -> EvaluationReport:
    """``measure`` reads the features of the pages it is given (the probe; a fake in tests)."""
    rules = profile.evaluation
    found = prescan(glances, rules.prescan)
    if found.all_blank and rules.prescan.all_blank_reject:
        return _report(all_blank(), 0.0, found, profile)
    sample = select_pages(len(glances), found.blank_pages, full_below=rules.full_sample_below,
                          size=rules.sample_size)
    scored = score_document(measure(sample), rules.dimension_weights, rules.ocr_dpi)
    confidence = c_doc(scored.dimension_scores, rules.dimension_weights, found.total_penalty)
    decision = decide(confidence, scored.page_scores, scored.variance, rules.score_variance_threshold,
                      profile.classification)
    page_scores = dict(scored.page_scores)
    if decision.route == "HYBRID":
        blank = set(found.blank_pages)
        rest = [g.page for g in glances if g.page not in page_scores and g.page not in blank]
        if rest:
            page_scores |= score_pages(measure(rest), rules.dimension_weights, rules.ocr_dpi)
    return _report(decision, confidence, found, profile, scored.dimension_scores, page_scores,
                   Sampling(pages=sample, variance=scored.variance))


def blend(report: EvaluationReport, llm_scores: dict[str, float], model: str,
          profile: ThresholdProfile) -> EvaluationReport:
    """The deterministic dimensions mixed with a model's scores of the same dimensions (the profile's
    ``llm_share`` of each), C_doc and the route decided again; page scores stay deterministic."""
    rules = profile.evaluation
    share = rules.llm_share
    dims = {dim: round((1 - share) * value + share * min(max(llm_scores[dim], 0.0), 1.0), 4)
            if dim in llm_scores else value for dim, value in report.dimension_scores.items()}
    penalty = sum(float(p["weight"]) for p in report.prescan_penalties)
    confidence = c_doc(dims, rules.dimension_weights, penalty)
    decision = decide(confidence, report.page_scores, report.sampling.variance, rules.score_variance_threshold,
                      profile.classification)
    return report.model_copy(update={
        "route": decision.route, "c_doc": confidence, "route_reason": f"{decision.reason} [blended with {model}]",
        "degrade_reason": decision.degrade_reason, "dimension_scores": dims,
        "review_pages": _reviews(decision, report.page_scores, profile), "model_used": f"deterministic+{model}"})


def _reviews(decision: RoutingDecision, page_scores: dict[int, float], profile: ThresholdProfile) -> dict[int, str]:
    pv = profile.classification.pv_threshold
    if decision.route != "HYBRID":
        return {}
    return {page: f"evaluation: page score {score:.2f} < PV {pv:.2f}"
            for page, score in sorted(page_scores.items()) if score < pv}


def _report(decision: RoutingDecision, c_doc: float, found: PrescanResult, profile: ThresholdProfile,
            dimension_scores: dict[str, float] | None = None, page_scores: dict[int, float] | None = None,
            sampling: Sampling | None = None) -> EvaluationReport:
    c = profile.classification
    page_scores = page_scores or {}
    review = _reviews(decision, page_scores, profile)
    return EvaluationReport(
        route=decision.route, c_doc=c_doc, route_reason=decision.reason, degrade_reason=decision.degrade_reason,
        prescan_penalties=[{"rule": p.rule, "weight": p.weight, "reason": p.reason} for p in found.penalties],
        prescan_metrics=found.raw_metrics, blank_pages=found.blank_pages,
        dimension_scores=dimension_scores or {}, weights_snapshot=dict(profile.evaluation.dimension_weights),
        thresholds={"A": c.a_threshold, "PV": c.pv_threshold, "B": c.b_threshold},
        sampling=sampling or Sampling(), page_scores=page_scores, review_pages=review)
