"""The extractor's calls to a model (when one is configured): two stages where the page's call cap
allows, text roles then attributes, one otherwise; a failing model leaves the rules' reading."""

from __future__ import annotations

from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import PageClassified
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.profile import ThresholdProfile
from skuflow_extractor.domain.assist import adopt, unavailable, wants_model
from skuflow_extractor.domain.extraction import Extraction
from skuflow_llm import LLMError, LLMService
from skuflow_llm.pages import page_context
from skuflow_platform.storage import LocalStorage

TWO_STAGE_CALLS = 2


async def read_with_model(llm: LLMService | None, rules: Extraction, page: ParsedPage, classified: PageClassified,
                          profile: ThresholdProfile, envelope: EventEnvelope,
                          storage: LocalStorage) -> tuple[Extraction, dict[str, object]]:
    """The page's reading and its LLM tally (for ``advance``)."""
    if llm is None or not wants_model(rules, classified.classification, classified.evaluation_review):
        return rules, {}
    facts = {"job_id": envelope.job_id, "merchant_id": envelope.merchant_id, "page": page.page,
             "page_type": classified.classification.page_type, "text_blocks": page.text_blocks,
             "screenshot": storage.get(page.screenshot_uri) if page.screenshot_uri else None}
    calls, cost, roles = 0, 0.0, None
    try:
        if llm.page_call_limit - classified.llm_calls >= TWO_STAGE_CALLS:
            stage = await llm.classify_text(page_context("classify_text", calls_used=classified.llm_calls, **facts))
            calls, cost = stage.calls_made, stage.cost_usd
            roles = stage.answer.roles if stage.answer else None
        answered = await llm.extract_sku_attrs(page_context(
            "extract_sku_attrs", calls_used=classified.llm_calls + calls, inputs={"text_roles": roles or []}, **facts))
    except LLMError as exc:
        calls += int(exc.context.get("calls_made", 0))
        return unavailable(rules, f"llm unavailable ({type(exc).__name__})"), classified.spent(calls, cost)
    method = "two_stage" if roles is not None else "single_stage"
    reading = adopt(rules, answered.answer, method, answered.model_used, page, classified.file_hash, profile,
                    answered.needs_review)
    return reading, classified.spent(calls + answered.calls_made, cost + answered.cost_usd)
