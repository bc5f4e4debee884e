"""Evaluator service wiring: job.created → job.routed, or job.failed when the document is refused or
cannot be evaluated.

The evaluation is cached by (file_hash, config_version) in the evaluator's schema; a Postgres
advisory lock on that key makes two replicas that receive the same file evaluate it once (the
second waits, then reads the first one's row). The document is checked and read in the parser's
worker pool, so a hostile file costs a worker process, never this consumer.
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.evaluation import EvaluationReport
from skuflow_contracts.events import EVAL_FAILED_REASON, JobCreated, JobFailed, JobRouted
from skuflow_contracts.profile import ThresholdProfile
from skuflow_contracts.topics import JOB_CREATED
from skuflow_evaluator.llm import evaluate_with_model, noted, wants_model
from skuflow_evaluator.metrics import FAILED, count_route
from skuflow_evaluator.probe import evaluate_file, screenshots
from skuflow_evaluator.tables import evaluations, metadata, platform, profiles
from skuflow_llm import optional_llm_service
from skuflow_parser.domain.security import SecurityLimits
from skuflow_parser.pages import ParserConfig
from skuflow_parser.workers import PagePool, PageTimeout, WorkerCrashed
from skuflow_platform.consumer import UnitOfWork
from skuflow_platform.metrics import once_committed
from skuflow_platform.profiles import ProfileBook
from skuflow_platform.runtime import ServiceContext, ServiceDefinition, Subscriptions
from skuflow_platform.settings import PlatformSettings


class EvaluatorSettings(PlatformSettings):
    evaluation_budget_seconds: float = 120.0  # reading and scoring one document
    parser_document_budget_seconds: float = 120.0  # opening and pre-checking it (the parser's own limit)
    evaluator_workers: int = 1
    max_pages: int = SecurityLimits().max_pages
    max_pdf_objects: int = SecurityLimits().max_objects


async def _cached(uow: UnitOfWork, job: JobCreated) -> EvaluationReport | None:
    key = f"{job.file_hash}:{job.config_version}"
    await uow.conn.execute(sa.select(sa.func.pg_advisory_xact_lock(sa.func.hashtextextended(key, 0))))
    row = (await uow.conn.execute(sa.select(evaluations.c.report).where(
        (evaluations.c.file_hash == job.file_hash) & (evaluations.c.config_version == job.config_version)))).first()
    return EvaluationReport.model_validate(row.report) if row else None


async def _fail(uow: UnitOfWork, to_status: str, reason: str, message: str) -> None:
    uow.emit(JobFailed(stage="evaluator", reason=reason, message=message))
    await uow.transition("job", uow.envelope.job_id, "EVALUATING", to_status, reason)


def subscriptions(ctx: ServiceContext) -> Subscriptions:
    settings = EvaluatorSettings()
    llm = optional_llm_service()
    pool = PagePool(workers=settings.evaluator_workers, max_tasks_per_child=50,
                    page_budget_seconds=settings.evaluation_budget_seconds, config=ParserConfig(ocr_enabled=False),
                    document_budget_seconds=settings.parser_document_budget_seconds)
    ctx.on_shutdown.append(pool.close)
    limits = SecurityLimits(max_pages=settings.max_pages, max_objects=settings.max_pdf_objects)
    book = ProfileBook(profiles)

    async def evaluated(job: JobCreated, uow: UnitOfWork) -> EvaluationReport | None:
        path = str(ctx.storage.path(job.file_uri))
        checked = await pool.check(path, limits)
        if checked.reason is not None:
            await _fail(uow, "REJECTED", checked.reason, checked.message)
            return None
        profile = await book.get(uow.conn, job.config_version)
        try:
            outcome = await pool.run("the evaluation", settings.evaluation_budget_seconds, evaluate_file, path,
                                     profile)
        except (PageTimeout, WorkerCrashed) as exc:
            outcome = str(exc)
        if isinstance(outcome, str):
            once_committed(FAILED.inc)
            await _fail(uow, "EVAL_FAILED", EVAL_FAILED_REASON, f"the document could not be evaluated: {outcome}")
            return None
        if wants_model(llm, outcome):
            outcome = await with_llm(outcome, profile, path, uow)
        await uow.conn.execute(pg_insert(evaluations).values(
            file_hash=job.file_hash, config_version=job.config_version, route=outcome.route, c_doc=outcome.c_doc,
            reason=outcome.route_reason, degrade_reason=outcome.degrade_reason,
            report=outcome.model_dump(mode="json"), model_used=outcome.model_used,
        ).on_conflict_do_nothing())
        return outcome

    async def with_llm(report: EvaluationReport, profile: ThresholdProfile, path: str,
                       uow: UnitOfWork) -> EvaluationReport:
        pages = report.sampling.pages[:profile.evaluation.llm_screenshots]
        try:
            shots = await pool.run("page screenshots", settings.evaluation_budget_seconds, screenshots, path, pages)
        except (PageTimeout, WorkerCrashed) as exc:
            return noted(report, f"LLM evaluation unavailable: {exc}")
        return await evaluate_with_model(llm, report, shots, profile, job_id=uow.envelope.job_id,
                                         merchant_id=uow.envelope.merchant_id)

    async def on_job_created(envelope: EventEnvelope[JobCreated], uow: UnitOfWork) -> None:
        job = envelope.payload
        cached = await _cached(uow, job)
        report = cached or await evaluated(job, uow)
        if report is None:
            return
        once_committed(count_route, report, cached is not None)
        await uow.transition("job", envelope.job_id, "EVALUATING", "EVALUATED", report.route_reason,
                             detail={"route": report.route, "c_doc": report.c_doc})
        uow.emit(JobRouted(route=report.route, c_doc=report.c_doc, reason=report.route_reason,
                           degrade_reason=report.degrade_reason, evaluation=report, file_uri=job.file_uri,
                           file_hash=job.file_hash, config_version=job.config_version))

    return [(JOB_CREATED, on_job_created), book.subscription()]


definition = ServiceDefinition(
    name="evaluator", default_port=8001, metadata=metadata, tables=platform,
    versions_dir=Path(__file__).parent / "migrations", subscriptions=subscriptions,
)
