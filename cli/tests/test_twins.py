"""Scanned twins: a born-digital document printed and scanned again, deterministically, with the same
truth; pages that do not show their text layer are not twinned."""

import json
from pathlib import Path

import pymupdf

from skuflow_cli.golden.twins import drawn_share, sampled, scanned_twin, twinned
from skuflow_cli.main import main as skuflow

GOLDEN = Path(__file__).resolve().parents[2] / "tests" / "golden" / "generated"


def one_page_set(root: Path, name: str = "g11_en_price_list", page: int = 2) -> Path:
    """One page of a golden document, with its truth, as a labelled set of one."""
    root.mkdir(parents=True, exist_ok=True)
    with pymupdf.open(GOLDEN / f"{name}.pdf") as source, pymupdf.open() as single:
        single.insert_pdf(source, from_page=page - 1, to_page=page - 1)
        single.save(root / f"{name}.pdf")
    truth = json.loads((GOLDEN / f"{name}.truth.json").read_text())
    truth = {**truth, "pages": [{**truth["pages"][page - 1], "page": 1}]}
    (root / f"{name}.truth.json").write_text(json.dumps(truth))
    return root


def test_a_twin_is_the_same_scan_every_time_with_no_text_layer_and_the_same_pages():
    original = (GOLDEN / "g11_en_price_list.pdf").read_bytes()
    twin = scanned_twin(original, "g11")
    assert twin == scanned_twin(original, "g11") != scanned_twin(original, "another seed")
    with pymupdf.open(stream=twin) as scan, pymupdf.open(stream=original) as born:
        assert [p.rect for p in scan] == [p.rect for p in born]
        assert all(not p.get_text().strip() and len(p.get_images()) == 1 for p in scan)


def test_a_page_whose_text_layer_is_not_drawn_is_not_twinned(tmp_path):
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "AB-100 12.50 shown", fontsize=11)
    doc.new_page().insert_text((72, 100), "AB-100 12.50 hidden", fontsize=11, render_mode=3)  # invisible text
    doc.new_page().insert_text((72, 100), "AB-100 12.50 turned", fontsize=11)
    doc[2].set_rotation(90)  # its words come in the unrotated frame, its pixels as shown
    assert drawn_share(doc[0]) == 1.0 and drawn_share(doc[1]) == 0.0 and drawn_share(doc[2]) == 1.0
    labelled = one_page_set(tmp_path / "set")
    with pymupdf.open() as invisible:
        page = invisible.new_page()
        page.insert_text((72, 100), "AB-100 12.50", fontsize=11, render_mode=3)
        invisible.save(tmp_path / "set" / "ghost.pdf")
    (tmp_path / "set" / "ghost.truth.json").write_text(json.dumps({"pages": [{"page": 1, "skus": []}]}))
    (tmp_path / "set" / "kept.truth.json").write_text(json.dumps({"split": "frozen", "pages": []}))
    (tmp_path / "set" / "kept.pdf").write_bytes((labelled / "g11_en_price_list.pdf").read_bytes())
    documents, left_out = twinned(labelled, "born-digital")
    assert [d.name for d in documents] == ["g11_en_price_list"] and left_out == ["ghost"]


def test_skuflow_golden_twins_scores_the_twin_beside_its_original(tmp_path, capsys):
    labelled = one_page_set(tmp_path / "set")
    report = tmp_path / "twins.json"
    assert skuflow(["golden", "twins", str(labelled), "--out", str(tmp_path / "twins"), "--score", str(report)]) == 0
    result = json.loads(report.read_text())
    twin_truth = json.loads((tmp_path / "twins" / "g11_en_price_list.truth.json").read_text())
    assert twin_truth["source_kind"] == "image-only" and twin_truth["twin_of"] == "g11_en_price_list"
    assert result["original_f1"] > 0.9 and result["twin_f1"] >= 0.9 * result["original_f1"]
    assert "ratio" in capsys.readouterr().out
    assert skuflow(["golden", "twins", str(GOLDEN), "--out", str(tmp_path / "sample"), "--every", "10"]) == 0
    expected = {pdf.stem for pdf in GOLDEN.glob("*.pdf") if sampled(pdf.stem, 10)}
    assert {pdf.stem for pdf in (tmp_path / "sample").glob("*.pdf")} == expected and expected


def test_the_sample_of_twins_does_not_shift_when_documents_are_added(tmp_path):
    labelled = one_page_set(tmp_path / "set")
    def add(name: str) -> None:
        for suffix in (".pdf", ".truth.json"):
            (labelled / f"{name}{suffix}").write_bytes((labelled / f"g11_en_price_list{suffix}").read_bytes())
    for n in range(12):
        add(f"doc{n:02d}")
    before = {d.name for d in twinned(labelled, "born-digital", every=3)[0]}
    add("aaa_added")  # first by name: a sample of every third name would shift by one
    after = {d.name for d in twinned(labelled, "born-digital", every=3)[0]}
    assert after - {"aaa_added"} == before and 0 < len(before) < 13
