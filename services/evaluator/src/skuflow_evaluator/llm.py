"""The evaluator's call to a model (seed-001a §7.7 step 4, when one is configured): it scores sampled
page screenshots, blended with the deterministic dimensions; any failure of the model keeps the
deterministic report and says why."""

from __future__ import annotations

from skuflow_contracts.evaluation import EvaluationReport
from skuflow_contracts.profile import ThresholdProfile
from skuflow_evaluator.domain.evaluation import blend
from skuflow_evaluator.domain.routing import ALL_BLANK
from skuflow_llm import LLMCallContext, LLMError, LLMService


def wants_model(llm: LLMService | None, report: EvaluationReport) -> bool:
    return llm is not None and report.degrade_reason != ALL_BLANK


async def evaluate_with_model(llm: LLMService, report: EvaluationReport, screenshots: list[bytes],
                              profile: ThresholdProfile, *, job_id: str, merchant_id: str | None) -> EvaluationReport:
    try:
        answered = await llm.evaluate_document(LLMCallContext(
            operation="eval_document", merchant_id=merchant_id, job_id=job_id, screenshots=screenshots,
            features={"deterministic_scores": report.dimension_scores}))
    except LLMError as exc:
        return noted(report, f"LLM evaluation unavailable: {type(exc).__name__}")
    if answered.answer is None or answered.needs_review:
        return noted(report, "LLM answer not used: " + ("flagged for review" if answered.needs_review
                                                         else f"route {answered.route}"))
    blended = blend(report, {s.dimension: s.score for s in answered.answer.scores}, answered.model_used, profile)
    return blended.model_copy(update={"llm_cost_usd": round(answered.cost_usd, 6)})


def noted(report: EvaluationReport, why: str) -> EvaluationReport:
    return report.model_copy(update={"route_reason": f"{report.route_reason} [{why}]"})
