"""`skuflow extract` composes the same cores in one process and writes the same result.json."""

import json
import socket

import pytest

from skuflow_cli.catalog import generate_catalog
from skuflow_cli.main import main


def test_extract_writes_a_result_that_matches_the_generated_truth(tmp_path, capsys):
    pdf = tmp_path / "catalog.pdf"
    truth = generate_catalog(pdf, pages=5, seed=2)
    assert main(["extract", str(pdf), "--out", str(tmp_path / "out")]) == 0
    assert "5 pages, 28 SKUs, status FULL_IMPORTED" in capsys.readouterr().out
    result = json.loads((tmp_path / "out" / "result.json").read_text())
    assert result["schema_version"] == 1 and result["job"]["route"] == "AUTO"
    for page, expected in zip(result["pages"], truth, strict=True):
        assert (page["page_type"], page["layout"]) == (expected.page_type, expected.layout)
        predicted = {s["attributes"]["model"]: s for s in page["skus"]}
        assert set(predicted) == {s.model for s in expected.skus}
        for sku in expected.skus:
            got = predicted[sku.model]["attributes"]
            assert (got["product_name"], got["price"], got["size"], got["material"]) == (
                sku.product_name, sku.price, sku.size, sku.material)
        images = {i["image_id"]: i["bbox"] for i in page["images"]}
        bound = {b["sku_id"]: images[b["image_id"]] for b in page["bindings"] if b["image_id"]}
        for sku in expected.skus:
            if sku.image_bbox:
                assert bound[predicted[sku.model]["sku_id"]] == pytest.approx(sku.image_bbox, abs=0.5)
    assert all((tmp_path / "out" / i["path"]).is_file()
               for p in result["pages"] for i in p["images"] if i["path"])


def test_the_same_pdf_always_gets_the_same_ids(tmp_path):
    pdf = tmp_path / "catalog.pdf"
    generate_catalog(pdf, pages=3)
    for out in ("a", "b"):
        assert main(["extract", str(pdf), "--out", str(tmp_path / out)]) == 0
    ids = [[s["sku_id"] for p in json.loads((tmp_path / o / "result.json").read_text())["pages"]
            for s in p["skus"]] for o in ("a", "b")]
    assert ids[0] == ids[1] and len(set(ids[0])) == len(ids[0])


def test_unreadable_and_missing_files_get_a_clear_message_and_exit_code(tmp_path, capsys):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"not a pdf")
    assert main(["extract", str(broken), "--out", str(tmp_path / "out")]) == 3
    assert "not a readable PDF" in capsys.readouterr().err
    assert main(["extract", str(tmp_path / "missing.pdf"), "--out", str(tmp_path / "out")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_sample_catalog_writes_the_pdf_and_its_truth(tmp_path):
    assert main(["sample-catalog", "--out", str(tmp_path / "c.pdf"), "--pages", "4"]) == 0
    truth = json.loads((tmp_path / "c.truth.json").read_text())
    assert [p["page_type"] for p in truth["pages"]] == ["D", "C", "A", "C"]
    assert sum(len(p["skus"]) for p in truth["pages"]) == 18


def _port_nobody_listens_on() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_submit_says_so_when_the_file_is_missing_or_the_gateway_does_not_answer(tmp_path, capsys):
    gateway = f"http://127.0.0.1:{_port_nobody_listens_on()}"
    assert main(["submit", str(tmp_path / "missing.pdf"), "--gateway", gateway]) == 2
    assert "no such file" in capsys.readouterr().err
    pdf = tmp_path / "c.pdf"
    assert main(["sample-catalog", "--out", str(pdf), "--pages", "1"]) == 0
    capsys.readouterr()
    assert main(["submit", str(pdf), "--gateway", gateway]) == 4
    err = capsys.readouterr().err
    assert f"no answer from {gateway}/api/v1/jobs" in err and "Traceback" not in err


def test_a_set_that_is_not_one_or_a_path_that_is_not_there_is_said_in_one_line(tmp_path, capsys):
    assert main(["golden", "twins", str(tmp_path / "nowhere"), "--out", str(tmp_path / "twins")]) == 2
    assert "is not a directory" in capsys.readouterr().err
    assert main(["eval", "--cross-validate", "batch", "--out", str(tmp_path / "cv.json"),
                 "--real", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert "no such file or directory" in err and "sources.json" in err and "Traceback" not in err


def test_a_command_whose_database_does_not_answer_says_so(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SKUFLOW_DATABASE_URL",
                       f"postgresql+psycopg://skuflow:skuflow@127.0.0.1:{_port_nobody_listens_on()}/skuflow")
    assert main(["corrections", "export", "--out", str(tmp_path / "corrections"), "--by", "ops-anna"]) == 4
    err = capsys.readouterr().err
    assert "the database does not answer" in err and "Traceback" not in err
