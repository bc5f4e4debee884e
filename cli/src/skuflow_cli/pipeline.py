"""The whole pipeline in one process: the services' domain cores, no Kafka, no Postgres.

Same cores, same result.json as the services, so evaluations and benchmarks are fast and
deterministic.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from skuflow_binder.domain.dedup import SeenImages
from skuflow_binder.domain.page import bind_page
from skuflow_classifier.domain.classification import classify_page
from skuflow_contracts.evaluation import EvaluationReport
from skuflow_contracts.profile import profile_for
from skuflow_contracts.results import JobSummary, PageResult, ResultDocument
from skuflow_evaluator.probe import evaluate_document
from skuflow_extractor.domain.extraction import extract_page
from skuflow_output.domain.completion import AUTOMATIC_REVISION, assemble, job_status
from skuflow_output.export import write_result
from skuflow_parser.pipeline import open_checked, parse_and_store
from skuflow_platform.storage import LocalStorage, sha256_hex

CONFIG_VERSION = "v1"


def process_pages(pdf: bytes, file_hash: str, storage: LocalStorage, job_id: str,
                  reviews: dict[int, str] | None = None) -> list[PageResult]:
    """Pages in order, so each page sees the previous page's table header and the job's logos;
    ``reviews`` are the pages the evaluator wants reviewed (HYBRID) and why."""
    profile = profile_for(CONFIG_VERSION)
    seen = SeenImages()
    previous_table = None
    results = []
    for stored in parse_and_store(pdf, job_id=job_id, file_hash=file_hash, storage=storage):
        classification = classify_page(stored.page, profile)
        extraction = extract_page(stored.page, classification, file_hash, profile, previous_table)
        previous_table = extraction.table
        results.append(bind_page(stored.page, classification, extraction.skus, extraction.method, profile, seen,
                                 extraction.fallback_reason,
                                 [*extraction.review_reasons, *filter(None, [(reviews or {}).get(stored.page.page)])]))
    return results


def run_pipeline(pdf: bytes, storage: LocalStorage) -> ResultDocument:
    """Route, parse, classify, extract and bind every page; images stay in ``storage``."""
    file_hash = sha256_hex(pdf)
    job_id = f"local-{file_hash[:12]}"
    evaluation = evaluate(pdf)
    pages = process_pages(pdf, file_hash, storage, job_id, evaluation.review_pages)
    summary = JobSummary(job_id=job_id, file_hash=file_hash, route=evaluation.route,
                         status=job_status([(page, AUTOMATIC_REVISION) for page in pages], evaluation.route),
                         total_pages=len(pages), config_version=CONFIG_VERSION)
    return assemble(summary, pages)


def evaluate(pdf: bytes) -> EvaluationReport:
    """The evaluator's report on the document, in this process (the services read it in a worker)."""
    doc = open_checked(pdf)
    try:
        return evaluate_document(doc, CONFIG_VERSION)
    finally:
        doc.close()


def extract_file(pdf_path: Path, out_dir: Path) -> tuple[ResultDocument, Path]:
    """Process one PDF and write ``out_dir/result.json`` with its images under ``out_dir/images``."""
    with tempfile.TemporaryDirectory(prefix="skuflow-") as scratch:
        storage = LocalStorage(Path(scratch))
        document = run_pipeline(pdf_path.read_bytes(), storage)
        return document, write_result(document, storage.get, out_dir)
