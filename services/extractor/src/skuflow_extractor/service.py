"""Extractor service wiring: page.classified → page.extracted, with cross-page tables.

A page that may continue the previous page's table (it starts with product rows and no header)
is not read before that page: it waits in ``deferred_pages`` and is read, in the same
transaction, when the previous page's header is recorded, or when that page is announced as
dead-lettered (``page.failed``), in which case it is read on its own. The dead-lettered page
leaves a placeholder row that its replay replaces, so a replay yields what a first delivery would.

Each reading names the page's layout, the first of the job's layouts it is alike to, and is read with
what people taught of that layout: a person's review is learnt, and the rest follow (``lessons``).
"""

from __future__ import annotations

import time
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import PageClassified, PageFailed
from skuflow_contracts.topics import PAGE_CLASSIFIED, PAGE_FAILED
from skuflow_contracts.traces import Stopwatch
from skuflow_extractor import lessons
from skuflow_extractor.llm import read_with_model
from skuflow_extractor.metrics import CROSS_PAGE_DEFERRED, count_reading
from skuflow_extractor.reading.adaptation import typed_as
from skuflow_extractor.reading.layouts import canonical, layout_of
from skuflow_extractor.reading.pipeline import read_page_staged
from skuflow_extractor.readings import BOOK, UNKNOWN, extracted, header_of, known_layouts, page_inputs, publish
from skuflow_extractor.tables import deferred_pages, metadata, page_tables, platform
from skuflow_extractor.trace import extraction_trace
from skuflow_llm import LLMService, optional_llm_service
from skuflow_llm.pages import PageCall
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.metrics import once_committed
from skuflow_platform.runtime import ServiceContext, ServiceDefinition, Subscriptions
from skuflow_platform.tracing import attributes, stage


async def _release_next(uow: UnitOfWork, ctx: ServiceContext, page: int, llm: LLMService | None) -> None:
    """Read the page that was waiting for ``page``, if any."""
    waiting = (await uow.conn.execute(deferred_pages.delete().where(
        (deferred_pages.c.job_id == uow.envelope.job_id) & (deferred_pages.c.page == page + 1))
        .returning(deferred_pages.c.event))).first()
    if waiting is not None:
        await _extract(uow, ctx, PageClassified.model_validate(waiting.event), llm, wait=False)


async def _extract(uow: UnitOfWork, ctx: ServiceContext, classified: PageClassified, llm: LLMService | None, *,
                   wait: bool = True) -> None:
    job_id, clock = uow.envelope.job_id, Stopwatch()
    await lessons.hold(uow.conn, uow.envelope.merchant_id)
    page, geo, profile, previous = await page_inputs(uow.conn, ctx.storage, job_id, classified)
    if previous is UNKNOWN and wait:
        deferred = pg_insert(deferred_pages).values(
            job_id=job_id, page=page.page, event=classified.model_dump(mode="json"))
        waiting_generation = sa.func.coalesce(deferred_pages.c.event["generation"].as_integer(), 0)
        await uow.conn.execute(deferred.on_conflict_do_update(  # a reprocess's page replaces an older one
            index_elements=[deferred_pages.c.job_id, deferred_pages.c.page],
            set_={"event": deferred.excluded.event}, where=waiting_generation < classified.generation))
        once_committed(CROSS_PAGE_DEFERRED.inc)
        return
    layout = canonical(layout_of(geo), await known_layouts(uow.conn, job_id, classified.generation))
    teacher = await lessons.teacher_for(uow.conn, uow.envelope.merchant_id, job_id, layout)
    classification = typed_as(classified.classification, teacher.page_type)
    call = PageCall.of(page, job_id=job_id, merchant_id=uow.envelope.merchant_id, read=ctx.storage.get,
                       calls_used=classified.llm_calls)
    started = time.perf_counter()
    header = header_of(previous)
    with stage("read page", page=page.page, layout=layout, adapted=teacher.source is not None) as span:
        rules, stages = read_page_staged(page, classification, classified.file_hash, profile, header,
                                         teacher.reader, geo, teacher.columns)
        extraction, spent = await read_with_model(llm, rules, page, classification,
                                                  classified.evaluation_review, call, classified.file_hash, profile)
        span.set_attributes(attributes(  # seed-000 §12.9's trace fields
            extraction_method=extraction.method, fallback_reason=extraction.fallback_reason,
            skus=len(extraction.skus), reading_confidence=extraction.confidence))
    reading = pg_insert(page_tables).values(
        job_id=job_id, page=page.page, merged_from=extraction.merged_from,
        header=extraction.table.to_json() if extraction.table else None, placeholder=False,
        generation=classified.generation,
    )
    recorded = await uow.conn.execute(reading.on_conflict_do_update(
        index_elements=[page_tables.c.job_id, page_tables.c.page],
        set_={"header": reading.excluded.header, "merged_from": reading.excluded.merged_from,
              "placeholder": False, "generation": reading.excluded.generation},
        # a replayed page replaces its dead-letter placeholder; a full reprocess, the earlier reading
        where=page_tables.c.placeholder | (page_tables.c.generation < classified.generation),
    ).returning(page_tables.c.page))
    if recorded.first() is None:
        return  # already extracted (a redelivery racing a release)
    once_committed(count_reading, extraction, time.perf_counter() - started)
    trace = extraction_trace(job_id, classified, extraction, stages, header, teacher, reading=classified.reading,
                             layout=layout, spent=spent, timing=clock.timing(uow.envelope.occurred_at))
    ctx.storage.put(trace.key, trace.to_bytes())
    await publish(uow, job_id, extracted(classified, classification, extraction, layout=layout,
                                         adapted_from=teacher.source, **classified.spent(spent.calls, spent.cost_usd)),
                  teacher.lesson_ids)
    await _release_next(uow, ctx, page.page, llm)


def subscriptions(ctx: ServiceContext) -> Subscriptions:
    llm = optional_llm_service()

    async def on_page_classified(envelope: EventEnvelope[PageClassified], uow: UnitOfWork) -> None:
        await _extract(uow, ctx, envelope.payload, llm)

    async def on_page_failed(envelope: EventEnvelope[PageFailed], uow: UnitOfWork) -> None:
        failed = envelope.payload
        placeholder = pg_insert(page_tables).values(job_id=envelope.job_id, page=failed.page, header=None,
                                                    placeholder=True, generation=failed.generation)
        await uow.conn.execute(placeholder.on_conflict_do_update(
            index_elements=[page_tables.c.job_id, page_tables.c.page],
            set_={"header": None, "merged_from": None, "placeholder": True, "generation": failed.generation},
            where=page_tables.c.generation < failed.generation))
        await _release_next(uow, ctx, failed.page, llm)

    return [(PAGE_CLASSIFIED, on_page_classified), (PAGE_FAILED, on_page_failed), BOOK.subscription(),
            *lessons.subscriptions(ctx)]


definition = ServiceDefinition(
    name="extractor", default_port=8004, metadata=metadata, tables=platform,
    versions_dir=Path(__file__).parent / "migrations", subscriptions=subscriptions,
)
