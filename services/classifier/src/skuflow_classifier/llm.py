"""The classifier's call to a model (when one is configured), only for a page it sends to review (in doubt
whether the page lists products)."""

from __future__ import annotations

from skuflow_classifier.domain.assist import adopt, unavailable
from skuflow_contracts.results import PageClassification
from skuflow_llm import LLMError, LLMService
from skuflow_llm.pages import PageCall, Spent


async def classify_with_model(llm: LLMService | None, classified: PageClassification, call: PageCall,
                              threshold: float) -> tuple[PageClassification, Spent]:
    if llm is None or not classified.needs_review:
        return classified, Spent()
    try:
        answered = await llm.classify_page(call.context("classify_page", classified.page_type))
    except LLMError as exc:
        return unavailable(classified, exc), Spent(int(exc.context.get("calls_made", 0)))
    return (adopt(classified, answered.answer, answered.model_used, threshold, answered.needs_review),
            Spent(answered.calls_made, answered.cost_usd))
