"""Classifier service wiring: page.parsed → page.classified."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_classifier.domain.assist import adopt, unavailable
from skuflow_classifier.domain.classification import classify_page
from skuflow_classifier.tables import metadata, page_classifications, platform
from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import PageClassified, PageParsed
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.profile import profile_for
from skuflow_contracts.results import PageClassification
from skuflow_contracts.topics import PAGE_PARSED
from skuflow_llm import ExecuteResult, LLMError, optional_llm_service
from skuflow_llm.pages import page_context
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.runtime import ServiceContext, ServiceDefinition, Subscriptions


def subscriptions(ctx: ServiceContext) -> Subscriptions:
    llm = optional_llm_service()

    async def assisted(rules: PageClassification, page: ParsedPage, parsed: PageParsed, threshold: float,
                       envelope: EventEnvelope) -> tuple[PageClassification, ExecuteResult | None]:
        """Below the confidence threshold, a configured model is asked; its failure keeps the rules' reading."""
        if llm is None or not rules.needs_review:
            return rules, None
        screenshot = ctx.storage.get(page.screenshot_uri) if page.screenshot_uri else None
        try:
            answered = await llm.classify_page(page_context(
                "classify_page", job_id=envelope.job_id, merchant_id=envelope.merchant_id, page=page.page,
                page_type=rules.page_type, text_blocks=page.text_blocks, screenshot=screenshot,
                calls_used=parsed.llm_calls))
        except LLMError as exc:
            return unavailable(rules, exc), None
        return adopt(rules, answered.answer, answered.model_used, threshold, answered.needs_review), answered

    async def on_page_parsed(envelope: EventEnvelope[PageParsed], uow: UnitOfWork) -> None:
        parsed = envelope.payload
        page = ParsedPage.model_validate_json(ctx.storage.get(parsed.ir_uri))
        profile = profile_for(parsed.config_version)
        classification, answered = await assisted(classify_page(page, profile), page, parsed,
                                                  profile.classification.page_type_min_confidence, envelope)
        await uow.conn.execute(pg_insert(page_classifications).values(
            job_id=envelope.job_id, page=parsed.page, page_type=classification.page_type,
            confidence=classification.page_type_confidence, layout=classification.layout,
            needs_review=classification.needs_review, detail=classification.model_dump(mode="json"),
        ).on_conflict_do_nothing())
        spent = parsed.spent(answered.calls_made, answered.cost_usd) if answered else {}
        await uow.emit(parsed.advance(PageClassified, classification=classification, **spent))

    return [(PAGE_PARSED, on_page_parsed)]


definition = ServiceDefinition(
    name="classifier", default_port=8003, metadata=metadata, tables=platform,
    versions_dir=Path(__file__).parent / "migrations", subscriptions=subscriptions,
)
