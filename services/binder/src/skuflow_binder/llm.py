"""The binder's call to a model (when one is configured): ambiguous bindings before they go to a person."""

from __future__ import annotations

from skuflow_binder.domain.assist import ambiguous_candidates, resolve
from skuflow_contracts.results import PageResult
from skuflow_llm import LLMError, LLMService
from skuflow_llm.pages import PageCall, Spent


async def settle_with_model(llm: LLMService | None, result: PageResult, call: PageCall) -> tuple[PageResult, Spent]:
    candidates = ambiguous_candidates(result)
    if llm is None or not candidates:
        return result, Spent()
    try:
        answered = await llm.resolve_binding(call.context("resolve_binding", result.page_type,
                                                          inputs={"candidates": candidates}))
    except LLMError as exc:
        return result, Spent(int(exc.context.get("calls_made", 0)))
    return resolve(result, answered.answer, answered.needs_review), Spent(answered.calls_made, answered.cost_usd)
