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
from skuflow_evaluator.domain.scoring import score_document, score_pages

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
    c_doc = scored.c_doc(rules.dimension_weights, found.total_penalty)
    decision = decide(c_doc, scored.page_scores, scored.variance, rules.score_variance_threshold,
                      profile.classification)
    page_scores = dict(scored.page_scores)
    if decision.route == "HYBRID":
        rest = [g.page for g in glances if g.page not in page_scores and g.page not in found.blank_pages]
        if rest:
            page_scores |= score_pages(measure(rest), rules.dimension_weights, rules.ocr_dpi)
    return _report(decision, c_doc, found, profile, scored.dimension_scores, page_scores,
                   Sampling(pages=sample, variance=scored.variance))


def _report(decision: RoutingDecision, c_doc: float, found: PrescanResult, profile: ThresholdProfile,
            dimension_scores: dict[str, float] | None = None, page_scores: dict[int, float] | None = None,
            sampling: Sampling | None = None) -> EvaluationReport:
    c = profile.classification
    page_scores = page_scores or {}
    review = {}
    if decision.route == "HYBRID":
        review = {page: f"evaluation: page score {score:.2f} < PV {c.pv_threshold:.2f}"
                  for page, score in sorted(page_scores.items()) if score < c.pv_threshold}
    return EvaluationReport(
        route=decision.route, c_doc=c_doc, route_reason=decision.reason, degrade_reason=decision.degrade_reason,
        prescan_penalties=[{"rule": p.rule, "weight": p.weight, "reason": p.reason} for p in found.penalties],
        prescan_metrics=found.raw_metrics, blank_pages=found.blank_pages,
        dimension_scores=dimension_scores or {}, weights_snapshot=dict(profile.evaluation.dimension_weights),
        thresholds={"A": c.a_threshold, "PV": c.pv_threshold, "B": c.b_threshold},
        sampling=sampling or Sampling(), page_scores=page_scores, review_pages=review)
