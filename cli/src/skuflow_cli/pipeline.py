"""The whole pipeline in one process: the services' domain cores, no Kafka, no Postgres.

Same cores, same result.json as the services, so evaluations and benchmarks are fast and
deterministic. As in the parser service, pages are parsed in a worker process: one page ahead of the
reading here, so both cores work, and a file that crashes MuPDF costs the worker, not the run. With
an LLM adapter (``skuflow eval --llm record|replay``) the same model calls as the services are made
where the rules are unsure; without one, none.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

from skuflow_binder.domain.dedup import SeenImages
from skuflow_binder.domain.page import bind_page
from skuflow_binder.llm import settle_with_model
from skuflow_classifier.domain.page_types import classify
from skuflow_classifier.llm import classify_with_model
from skuflow_contracts.evaluation import EvaluationReport
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.profile import profile_for
from skuflow_contracts.results import JobSummary, PageResult, ResultDocument, reader_version_of
from skuflow_contracts.revisions import machine_revision
from skuflow_evaluator.llm import evaluate_with_model, wants_model
from skuflow_evaluator.probe import evaluate_document, render
from skuflow_extractor.domain.extraction import needs_previous_page
from skuflow_extractor.domain.tables import TableHeader
from skuflow_extractor.llm import read_with_model
from skuflow_extractor.reading.geometry import geometry
from skuflow_extractor.reading.pipeline import read_page
from skuflow_llm import LLMService
from skuflow_llm.pages import PageCall
from skuflow_output.domain.completion import assemble, failed_page, job_status
from skuflow_output.export import write_result
from skuflow_parser.domain.document import UnreadableDocument
from skuflow_parser.domain.security import SecurityLimits
from skuflow_parser.pipeline import StoredPage, StorePage, open_checked
from skuflow_parser.settings import ParserSettings
from skuflow_parser.workers import PagePool
from skuflow_platform.storage import LocalStorage, sha256_hex

CONFIG_VERSION = "v1"
MERCHANT = "local"
log = logging.getLogger(__name__)


@functools.cache
def page_pool() -> PagePool:
    """The process's parser worker, started on first use and kept for every later document (a new
    worker costs seconds of imports and OCR warm-up); configured as the parser service's."""
    settings = ParserSettings()
    return PagePool(workers=1, max_tasks_per_child=settings.parser_max_tasks_per_child,
                    page_budget_seconds=settings.parser_page_budget_seconds, config=settings.parser_config(),
                    document_budget_seconds=settings.parser_document_budget_seconds)


class PagesAhead:
    """A document's pages in order, each parsed and stored in the worker while this process reads the
    one before it (the first while the evaluator reads the document)."""

    def __init__(self, pool: PagePool, path: str, page_count: int, file_hash: str, store: StorePage) -> None:
        self.pool, self.path, self.page_count, self.file_hash = pool, path, page_count, file_hash
        self.store = store
        self._next: asyncio.Future | None = None

    @classmethod
    async def start(cls, pdf: bytes, file_hash: str, storage: LocalStorage, job_id: str) -> PagesAhead:
        """The security check in the worker, then the first page handed to it; UnreadableDocument when
        the check refuses the file."""
        pool = page_pool()
        path = str(storage.path(storage.put(f"jobs/{job_id}/source.pdf", pdf)))
        checked = await pool.check(path, SecurityLimits())
        if checked.reason is not None:
            raise UnreadableDocument(checked.reason, checked.message)
        ahead = cls(pool, path, checked.page_count, file_hash, StorePage(job_id, storage))
        await ahead._hand_over(0)
        return ahead

    async def _hand_over(self, index: int) -> None:
        self._next = asyncio.ensure_future(self.pool.parse(self.path, index, self.file_hash, self.store)) \
            if index < self.page_count else None
        await asyncio.sleep(0)  # lets the task give the page to the worker before this process goes on

    async def pages(self) -> AsyncIterator[StoredPage]:
        for index in range(self.page_count):
            stored = await self._next
            await self._hand_over(index + 1)
            yield stored

    def cancel(self) -> None:
        """Stop waiting for the page in the worker (an error here, or the run given up)."""
        if self._next is not None:
            self._next.cancel()


async def process_pages(ahead: PagesAhead, file_hash: str, storage: LocalStorage, job_id: str,
                        evaluation: EvaluationReport, llm: LLMService | None = None) -> list[PageResult]:
    """Pages in order, so each page sees the previous page's table header and the job's logos;
    the evaluation's review pages (HYBRID) are doubted and their reason kept."""
    seen = SeenImages()
    previous_table = None
    results = []
    async for stored in ahead.pages():
        page = stored.page
        try:
            result, previous_table = await _read_page(page, previous_table, seen, file_hash, storage, job_id,
                                                      evaluation, llm)
        except Exception:  # as the services dead-letter the page: the document goes on, PARTIAL_FAILED
            log.exception("page %s of %s could not be read", page.page, job_id)
            result, previous_table = failed_page(page.page), None
        results.append(result)
    return results


async def _read_page(page: ParsedPage, previous_table: TableHeader | None, seen: SeenImages, file_hash: str,
                     storage: LocalStorage, job_id: str, evaluation: EvaluationReport,
                     llm: LLMService | None) -> tuple[PageResult, TableHeader | None]:
    """One page classified, read and bound, with the table it leaves for the next page."""
    profile = profile_for(CONFIG_VERSION)
    call = PageCall.of(page, job_id=job_id, merchant_id=MERCHANT, read=storage.get)
    classification, spent = await classify_with_model(llm, classify(page, profile), call,
                                                      profile.classification.page_type_min_confidence)
    review = evaluation.review_pages.get(page.page)
    # the previous page's header goes only to a page that may continue it, as the extractor service decides
    geo = geometry(page)
    continued = previous_table if previous_table and needs_previous_page(page, classification, profile,
                                                                         geo.upright.lines) else None
    rules = read_page(page, classification, file_hash, profile, continued, geo=geo)
    extraction, more = await read_with_model(llm, rules, page, classification, review,
                                             dataclasses.replace(call, calls_used=spent.calls), file_hash, profile)
    result = bind_page(page, classification, extraction.skus, extraction.method, profile, seen,
                       extraction.fallback_reason, [*extraction.review_reasons, *filter(None, [review])])
    result = result.model_copy(update={"reader_version": extraction.reader_version,
                                       "reading_confidence": extraction.confidence})
    result, _ = await settle_with_model(llm, result, dataclasses.replace(call, calls_used=(spent + more).calls))
    return result, extraction.table


async def evaluate(pdf: bytes, job_id: str, llm: LLMService | None = None) -> EvaluationReport:
    """The evaluator's report on the document, in this process (the services read it in a worker)."""
    doc = open_checked(pdf)
    profile = profile_for(CONFIG_VERSION)
    try:
        report = evaluate_document(doc, profile)
        if not wants_model(llm, report):
            return report
        shots = render(doc, report.sampling.pages[:profile.evaluation.llm_screenshots])
    finally:
        doc.close()
    return await evaluate_with_model(llm, report, shots, profile, job_id=job_id, merchant_id=MERCHANT)


async def read_document(pdf: bytes, storage: LocalStorage, llm: LLMService | None = None) -> ResultDocument:
    """Route, parse, classify, extract and bind every page; images stay in ``storage``."""
    file_hash = sha256_hex(pdf)
    job_id = f"local-{file_hash[:12]}"
    ahead = await PagesAhead.start(pdf, file_hash, storage, job_id)
    try:
        evaluation = await evaluate(pdf, job_id, llm)
        pages = await process_pages(ahead, file_hash, storage, job_id, evaluation, llm)
    finally:
        ahead.cancel()
    summary = JobSummary(job_id=job_id, file_hash=file_hash, route=evaluation.route,
                         status=job_status([(page, machine_revision(0)) for page in pages], evaluation.route),
                         total_pages=len(pages), config_version=CONFIG_VERSION, reader_version=reader_version_of(pages))
    return assemble(summary, pages)


def run_pipeline(pdf: bytes, storage: LocalStorage) -> ResultDocument:
    """``read_document`` without a model."""
    return asyncio.run(read_document(pdf, storage))


def extract_file(pdf_path: Path, out_dir: Path) -> tuple[ResultDocument, Path]:
    """Process one PDF and write ``out_dir/result.json`` with its images under ``out_dir/images``."""
    with tempfile.TemporaryDirectory(prefix="skuflow-") as scratch:
        storage = LocalStorage(Path(scratch))
        document = run_pipeline(pdf_path.read_bytes(), storage)
        return document, write_result(document, storage.get, out_dir)
