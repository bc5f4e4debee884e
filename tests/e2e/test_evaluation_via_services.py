"""`skuflow eval --via kafka`: the golden set goes through the running services and the report is stored."""

import asyncio
import json

import pytest
import sqlalchemy as sa

from skuflow_cli.catalog import generate_catalog, truth_document
from skuflow_cli.evaluation.runner import evaluate, run_via_services
from skuflow_cli.evaluation.store import store_report
from tests.e2e.stack import SECRET

pytestmark = pytest.mark.e2e


def test_a_golden_set_scored_through_the_services_is_stored_in_eval_reports(pipeline, tmp_path):
    for name, pages, seed in (("one", 3, 21), ("two", 4, 22)):
        truth = generate_catalog(tmp_path / f"{name}.pdf", pages=pages, seed=seed)
        (tmp_path / f"{name}.truth.json").write_text(json.dumps(truth_document(truth), ensure_ascii=False))

    def through_services(documents):
        return asyncio.run(run_via_services(documents, gateway=pipeline.gateway, secret=SECRET, concurrency=2))

    report = evaluate(tmp_path, through_services, "kafka")
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
