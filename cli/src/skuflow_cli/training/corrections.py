"""``skuflow corrections export``: the pages annotators corrected, as labelled pages the reader learns from.

A page a person completed (collab's ``human_tasks.reviewed``: the page as their correction left it)
is a labelled page: its SKUs' keys and prices are the truth, in GOLDEN_FORMAT §2. For each job, its
corrected pages are cut from the uploaded PDF into ``<merchant>_<job>.pdf`` beside the truth file, in
page order (``original_page`` keeps where each came from). A merchant's corrections leave their
tenancy only when an operator exports them into a training run: the export names its operator
(``--by``), and each job exported is recorded in collab's audit trail (``state_transitions``, entity
``corrections``: from the merchant's own to the global training set), so who shared which merchant's
pages is known. (While a job runs, what a correction teaches stays the merchant's: issue 42.)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pymupdf
import sqlalchemy as sa

from skuflow_contracts.results import PageResult
from skuflow_platform.settings import PlatformSettings
from skuflow_platform.storage import SCHEME, LocalStorage

TRUTH_ATTRIBUTES = ("model", "product_name", "price", "size", "color", "material")


def corrected_pages(database_url: str, merchant: str | None) -> dict[tuple[str, str], list[PageResult]]:
    """Every page a person completed, by (merchant, job); the latest review of a page wins."""
    engine = sa.create_engine(database_url)
    query = ("SELECT merchant_id, job_id, page, reviewed FROM collab.human_tasks WHERE status = 'COMPLETED'"
             " AND reviewed IS NOT NULL" + (" AND merchant_id = :m" if merchant else "") +
             " ORDER BY job_id, page, completed_at")
    pages: dict[tuple[str, str], dict[int, PageResult]] = {}
    with engine.connect() as conn:
        for row in conn.execute(sa.text(query), {"m": merchant}):
            pages.setdefault((row.merchant_id, row.job_id), {})[row.page] = PageResult.model_validate(row.reviewed)
    engine.dispose()
    return {job: [by_page[n] for n in sorted(by_page)] for job, by_page in pages.items()}


def truth_of(pages: list[PageResult]) -> dict:
    return {"language": None, "source_kind": None, "split": "corrections", "expected_route": None, "pages": [
        {"page": n, "original_page": page.page, "page_type": page.page_type, "layout": page.layout,
         "uncertain": False, "skus": [
             {name: getattr(sku.attributes, name) for name in TRUTH_ATTRIBUTES}
             for sku in page.skus if sku.validity == "valid"]}
        for n, page in enumerate(pages, start=1)]}


def export(database_url: str, storage: LocalStorage, out: Path, merchant: str | None = None, *,
           operator: str) -> list[Path]:
    """Write each job's corrected pages and their truth under ``out``, each job recorded as promoted by
    ``operator``; returns the PDFs written (a job whose upload is gone is left out)."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    promoted = []
    for (merchant_id, job_id), pages in corrected_pages(database_url, merchant).items():
        source = storage.path(f"{SCHEME}jobs/{job_id}/source.pdf")
        if not source.is_file():
            continue
        target = out / f"{merchant_id}_{job_id}.pdf"
        with pymupdf.open(source) as original, pymupdf.open() as cut:
            for page in pages:
                cut.insert_pdf(original, from_page=page.page - 1, to_page=page.page - 1)
            cut.save(target, garbage=3, deflate=True)
        target.with_suffix(".truth.json").write_text(json.dumps(truth_of(pages), ensure_ascii=False, indent=1),
                                                     encoding="utf-8")
        written.append(target)
        promoted.append({"entity": "corrections", "entity_id": f"{merchant_id}/{job_id}", "from_status": "merchant",
                         "to_status": "global_training", "reason": "skuflow corrections export",
                         "detail": json.dumps({"operator": operator, "pages": [p.page for p in pages],
                                               "out": str(target)})})
    _audit(database_url, promoted)
    return written


def _audit(database_url: str, promoted: list[dict]) -> None:
    if not promoted:
        return
    engine = sa.create_engine(database_url)
    with engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO collab.state_transitions (entity, entity_id, from_status, to_status, reason,"
                             " detail) VALUES (:entity, :entity_id, :from_status, :to_status, :reason,"
                             " CAST(:detail AS jsonb))"), promoted)
    engine.dispose()


def _export(args: argparse.Namespace) -> int:
    settings = PlatformSettings()
    written = export(settings.database_url, LocalStorage(settings.storage_root), args.out, args.merchant,
                     operator=args.by)
    print(f"{len(written)} jobs' corrected pages written to {args.out}")
    return 0


def add_corrections_commands(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="corrections_command", required=True)
    out = sub.add_parser("export", help="the pages annotators corrected, as labelled pages for `skuflow train`")
    out.add_argument("--out", type=Path, required=True)
    out.add_argument("--merchant", default=None, help="only this merchant's corrections")
    out.add_argument("--by", required=True, help="the operator who promotes them into the global training set "
                     "(recorded in collab's audit trail, one record per job)")
    out.set_defaults(run=_export)
