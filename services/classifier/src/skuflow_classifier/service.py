"""Classifier service wiring: page.parsed → page.classified."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_classifier.domain.page_types import classify
from skuflow_classifier.llm import classify_with_model
from skuflow_classifier.tables import metadata, page_classifications, platform, profiles
from skuflow_classifier.trace import classification_trace
from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import PageClassified, PageParsed
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.topics import PAGE_PARSED
from skuflow_contracts.traces import Stopwatch
from skuflow_llm import optional_llm_service
from skuflow_llm.pages import PageCall
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.metrics import PAGES_PROCESSED, PHASE_SECONDS, once_committed
from skuflow_platform.profiles import ProfileBook
from skuflow_platform.runtime import ServiceContext, ServiceDefinition, Subscriptions
from skuflow_platform.tracing import attributes, stage


def subscriptions(ctx: ServiceContext) -> Subscriptions:
    llm = optional_llm_service()
    book = ProfileBook(profiles)

    async def on_page_parsed(envelope: EventEnvelope[PageParsed], uow: UnitOfWork) -> None:
        parsed, clock = envelope.payload, Stopwatch()
        ir = ctx.storage.get(parsed.ir_uri)
        page = ParsedPage.model_validate_json(ir)
        profile = await book.get(uow.conn, parsed.config_version)
        call = PageCall.of(page, job_id=envelope.job_id, merchant_id=envelope.merchant_id, read=ctx.storage.get,
                           calls_used=parsed.llm_calls)
        with PHASE_SECONDS.labels("classify").time(), stage("classify") as span:
            classification, spent = await classify_with_model(llm, classify(page, profile), call,
                                                              profile.classification.page_type_min_confidence)
            span.set_attributes(attributes(  # seed-000 §12.9's classification_confidence
                page_type=classification.page_type, classification_confidence=classification.page_type_confidence,
                layout=classification.layout, needs_review=classification.needs_review))
        row = pg_insert(page_classifications).values(
            job_id=envelope.job_id, page=parsed.page, page_type=classification.page_type,
            confidence=classification.page_type_confidence, layout=classification.layout,
            needs_review=classification.needs_review, detail=classification.model_dump(mode="json"))
        await uow.conn.execute(row.on_conflict_do_update(  # the latest reading (a full reprocess's) is kept
            index_elements=[page_classifications.c.job_id, page_classifications.c.page],
            set_={name: row.excluded[name] for name in ("page_type", "confidence", "layout", "needs_review",
                                                        "detail")}))
        trace = classification_trace(envelope.job_id, parsed, ir, page, profile, classification, spent,
                                     clock.timing(envelope.occurred_at))
        ctx.storage.put(trace.key, trace.to_bytes())
        uow.emit(parsed.advance(PageClassified, classification=classification,
                                **parsed.spent(spent.calls, spent.cost_usd)))
        once_committed(PAGES_PROCESSED.labels("classifier").inc)

    return [(PAGE_PARSED, on_page_parsed), book.subscription()]


definition = ServiceDefinition(
    name="classifier", default_port=8003, metadata=metadata, tables=platform,
    versions_dir=Path(__file__).parent / "migrations", subscriptions=subscriptions,
)
