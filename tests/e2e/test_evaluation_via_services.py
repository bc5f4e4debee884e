"""`skuflow eval --via kafka`: the golden set goes through the running services and the report is stored,
and the services read every page exactly as one process does (the same reader, SKUs and review)."""

import asyncio
import json

import pytest
import sqlalchemy as sa

from skuflow_cli.catalog import generate_catalog, truth_document
from skuflow_cli.evaluation.runner import evaluate, run_in_process, run_via_services
from skuflow_cli.evaluation.store import store_report
from tests.e2e.stack import SECRET

pytestmark = pytest.mark.e2e


def reading(page: dict) -> dict:
    """What a page's reading says, whichever path read it (image files are stored under each job's id)."""
    return {"page": page["page"], "page_type": page["page_type"], "needs_review": page["needs_review"],
            "review_reasons": page["review_reasons"], "reader_version": page["reader_version"],
            "reading_confidence": page["reading_confidence"],
            "skus": [{key: sku[key] for key in ("sku_id", "attributes", "confidence", "validity")}
                     for sku in page["skus"]],
            "bindings": [(b["sku_id"], b["image_id"]) for b in page["bindings"]]}


def test_a_golden_set_scored_through_the_services_is_stored_in_eval_reports(pipeline, tmp_path):
    for name, pages, seed in (("one", 3, 21), ("two", 4, 22)):
        truth = generate_catalog(tmp_path / f"{name}.pdf", pages=pages, seed=seed)
        (tmp_path / f"{name}.truth.json").write_text(json.dumps(truth_document(truth), ensure_ascii=False))

    read = {}

    def kept(via, outcomes):
        read[via] = {o.document.name: [reading(page) for page in o.result["pages"]] for o in outcomes}
        return outcomes

    def through_services(documents):
        return kept("kafka", asyncio.run(run_via_services(documents, gateway=pipeline.gateway, secret=SECRET,
                                                           concurrency=2)))

    report = evaluate(tmp_path, through_services, "kafka")
    evaluate(tmp_path, lambda documents: kept("in-process", run_in_process(documents)), "in-process")
    assert read["kafka"] == read["in-process"] and read["kafka"]["one"][0]["reader_version"]
    assert report["errors"] == {} and report["pages"] == 7
    assert report["overall"]["sku"]["f1"] == 1.0 and report["route_confusion"] == {"AUTO": {"AUTO": 2}}

    report_id = store_report(pipeline.database_url, report, config_version="v1")
    engine = sa.create_engine(pipeline.database_url)
    try:
        with engine.connect() as conn:
            row = conn.execute(sa.text("SELECT via, sku_f1, report_data FROM evaluation.eval_reports WHERE id = :id"),
                               {"id": report_id}).one()
    finally:
        engine.dispose()
    assert (row.via, row.sku_f1, row.report_data["pages"]) == ("kafka", 1.0, 7)
