"""The evaluation runner in-process: golden-set loading, report shape, failures that are scored."""

import json

import pytest

from skuflow_cli.catalog import generate_catalog, truth_document
from skuflow_cli.evaluation.golden import GoldenSetError, load_golden_set
from skuflow_cli.evaluation.report import summary_table
from skuflow_cli.evaluation.runner import evaluate, run_in_process
from skuflow_cli.main import main


def golden(directory, name, pages, seed):
    truth = generate_catalog(directory / f"{name}.pdf", pages=pages, seed=seed)
    (directory / f"{name}.truth.json").write_text(json.dumps(truth_document(truth), ensure_ascii=False))


def test_a_golden_set_is_scored_with_breakdowns_and_unreadable_documents_count_as_misses(tmp_path):
    golden(tmp_path, "good", 4, 1)
    (tmp_path / "sub").mkdir()
    golden(tmp_path / "sub", "also-good", 3, 2)
    (tmp_path / "broken.pdf").write_bytes(b"not a pdf")
    (tmp_path / "broken.truth.json").write_text(json.dumps({"language": "en", "expected_route": "HUMAN_ALL",
        "pages": [{"page": 1, "page_type": "C", "layout": "L1", "skus": [{"model": "Q-1"}]}]}))
    report = evaluate(tmp_path, run_in_process, "in-process")
    assert (report["documents"], report["pages"], report["scored_pages"]) == (3, 8, 8)
    assert list(report["errors"]) == ["broken"] and report["errors"]["broken"].startswith("corrupt_pdf:")
    overall = report["overall"]["sku"]
    assert overall["precision"] == 1.0 and overall["truth"] == overall["matched"] + 1
    assert set(report["by_document"]) == {"good", "sub/also-good", "broken"}
    assert report["by_document"]["broken"]["sku"]["recall"] == 0.0
    assert set(report["by_language"]) == {"zh", "en"} and set(report["by_page_type"]) == {"A", "C", "D"}
    assert report["route_confusion"] == {"AUTO": {"AUTO": 2}, "HUMAN_ALL": {"none": 1}}
    assert report["pages_per_second"] > 0
    assert "overall" in summary_table(report)


def test_unusable_golden_directories_are_refused_clearly(tmp_path):
    with pytest.raises(GoldenSetError, match="holds no PDF"):
        load_golden_set(tmp_path)
    (tmp_path / "orphan.pdf").write_bytes(b"%PDF-1.4")
    with pytest.raises(GoldenSetError, match="has no truth file"):
        load_golden_set(tmp_path)
    (tmp_path / "orphan.truth.json").write_text("{not json")
    with pytest.raises(GoldenSetError, match="not valid JSON"):
        load_golden_set(tmp_path)
    assert main(["eval", str(tmp_path / "missing"), "--out", str(tmp_path / "r.json")]) == 2


def test_the_eval_command_writes_the_report_and_prints_a_summary(tmp_path, capsys):
    golden(tmp_path, "doc", 3, 4)
    assert main(["eval", str(tmp_path), "--out", str(tmp_path / "out" / "report.json")]) == 0
    printed = capsys.readouterr().out
    assert "1 documents, 3 pages" in printed and "attribute accuracy" in printed
    assert json.loads((tmp_path / "out" / "report.json").read_text())["overall"]["sku"]["f1"] == 1.0
