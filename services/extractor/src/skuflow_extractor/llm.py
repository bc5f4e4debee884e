"""The extractor's calls to a model (when one is configured): two stages where the page's call cap
allows, text roles then attributes, one otherwise; a failing model leaves the rules' reading."""

from __future__ import annotations

from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.profile import ThresholdProfile
from skuflow_contracts.results import PageClassification
from skuflow_extractor.domain.assist import adopt, unavailable, wants_model
from skuflow_extractor.domain.extraction import Extraction
from skuflow_llm import LLMError, LLMService
from skuflow_llm.pages import PageCall, Spent

TWO_STAGE_CALLS = 2


async def read_with_model(llm: LLMService | None, rules: Extraction, page: ParsedPage,
                          classification: PageClassification, evaluation_review: str | None, call: PageCall,
                          file_hash: str, profile: ThresholdProfile) -> tuple[Extraction, Spent]:
    if llm is None or not wants_model(rules, classification, evaluation_review):
        return rules, Spent()
    spent, roles = Spent(), None
    try:
        if llm.page_call_limit - call.calls_used >= TWO_STAGE_CALLS:
            stage = await llm.classify_text(call.context("classify_text", classification.page_type))
            spent, roles = Spent(stage.calls_made, stage.cost_usd), stage.answer.roles if stage.answer else None
        answered = await llm.extract_sku_attrs(call.context(
            "extract_sku_attrs", classification.page_type, extra_calls=spent.calls,
            inputs={"text_roles": roles or []}))
    except LLMError as exc:
        return (unavailable(rules, f"llm unavailable ({type(exc).__name__})"),
                spent + Spent(int(exc.context.get("calls_made", 0))))
    method = "two_stage" if roles is not None else "single_stage"
    reading = adopt(rules, answered.answer, method, answered.model_used, page, file_hash, profile,
                    answered.needs_review)
    return reading, spent + Spent(answered.calls_made, answered.cost_usd)
