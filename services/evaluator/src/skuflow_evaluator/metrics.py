"""Evaluator metrics (seed-001b §3.1 #1, #2, #15, #30): how documents are routed, how many go to
people and why, how often the evaluation cache answers, and evaluations that failed."""

from __future__ import annotations

from prometheus_client import Counter

from skuflow_contracts.evaluation import EvaluationReport

ROUTES = Counter("pdf_route_decision_total", "Routing decisions", ["route", "degrade_reason"])
DEGRADES = Counter("pdf_degrade_total", "Documents degraded to human work, by reason", ["degrade_reason"])
CACHE = Counter("eval_cache_total", "Evaluation cache lookups", ["result"])
FAILED = Counter("eval_failed_total", "Documents that could not be evaluated")


def count_route(report: EvaluationReport, cached: bool) -> None:
    CACHE.labels("hit_db" if cached else "miss").inc()
    ROUTES.labels(report.route, report.degrade_reason or "none").inc()
    if report.degrade_reason:
        DEGRADES.labels(report.degrade_reason).inc()
