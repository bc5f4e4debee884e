"""The golden-set generator writes truth in GOLDEN_FORMAT §2, deterministically, with real hard cases."""

import json
import re
import unicodedata

import pymupdf
import pytest

from skuflow_cli.golden.__main__ import main
from skuflow_cli.golden.generator import DEFAULT_DOCUMENTS, DEFAULT_SEED, generate_golden_set, write_document
from skuflow_cli.golden.plan import HARD_CASES, plan_document, plan_golden_set

SEED = 20261122
SKU_FIELDS = {"model", "product_name", "price", "size", "color", "material"}


@pytest.fixture(scope="module")
def golden(tmp_path_factory):
    """Six generated documents: clean, scanned, garbled, rotated, fragmented + small text, no currency."""
    out = tmp_path_factory.mktemp("golden")
    pdfs = generate_golden_set(out, seed=SEED, documents=6)
    return {pdf: json.loads(pdf.with_suffix(".truth.json").read_text(encoding="utf-8")) for pdf in pdfs}


def _pages_with(golden, feature):
    return [(pdf, page) for pdf, truth in golden.items() for page in truth["pages"] if feature in page["features"]]


def _key(sku):
    return "".join(unicodedata.normalize("NFKC", sku["model"] or sku["product_name"]).upper().split())


def test_truth_files_follow_the_golden_format(golden):
    assert len(golden) == 6
    for pdf, truth in golden.items():
        doc = pymupdf.open(pdf)
        assert truth["language"] in ("zh", "en", "mixed")
        assert truth["expected_route"] in ("AUTO", "HYBRID", "HUMAN_ALL")
        assert truth["features"] == sorted({f for p in truth["pages"] for f in p["features"]})
        assert 4 <= doc.page_count <= 12
        assert [p["page"] for p in truth["pages"]] == list(range(1, doc.page_count + 1))
        for page in truth["pages"]:
            assert page["page_type"] in "ABCD" and isinstance(page["uncertain"], bool)
            assert page["layout"] in (("L1", "L2", "L3", "L4") if page["page_type"] != "D" else (None,))
            assert bool(page["skus"]) == (page["page_type"] != "D" or page["uncertain"])
            keys = [_key(s) for s in page["skus"]]
            assert len(keys) == len(set(keys)), f"{pdf.name} p{page['page']}: duplicate SKU keys"
            displayed = doc[page["page"] - 1].rect
            for sku in page["skus"]:
                assert SKU_FIELDS <= set(sku) <= SKU_FIELDS | {"image_bbox"}
                assert isinstance(sku["product_name"], str) and sku["product_name"]
                assert all(sku[f] is None or isinstance(sku[f], str) for f in SKU_FIELDS)
                assert sku["price"] is None or re.fullmatch(r"\d+\.\d\d", sku["price"])
                if "image_bbox" in sku:
                    x0, y0, x1, y1 = sku["image_bbox"]
                    assert 0 <= x0 < x1 <= displayed.width + 0.01 and 0 <= y0 < y1 <= displayed.height + 0.01


def test_the_same_seed_gives_the_same_files_and_another_seed_other_ones(golden, tmp_path):
    for index in (1, 2, 3):  # scanned, garbled and rotated pages are deterministic too
        pdf, _ = write_document(plan_document(SEED, index), tmp_path)
        first = next(p for p in golden if p.name == pdf.name)
        assert pdf.read_bytes() == first.read_bytes()
        assert pdf.with_suffix(".truth.json").read_bytes() == first.with_suffix(".truth.json").read_bytes()
    _, other = write_document(plan_document(SEED + 1, 0), tmp_path / "other")
    assert other.as_json() != next(iter(golden.values()))


def test_the_default_set_mixes_every_feature_and_route():
    plans = plan_golden_set(DEFAULT_SEED, DEFAULT_DOCUMENTS)
    features = {f for plan in plans for f in plan.features}
    assert set(HARD_CASES) <= features
    assert {"L1", "L2:2x2", "L2:3x3", "L2:4x4", "L3", "L4", "cover", "contents", "blank_page", "brand_story",
            "mixed_page", "table", "cross_page_table:repeated_header", "cross_page_table:header_once",
            "table_thumbnails", "shared_image_variants", "multi_image_sku", "repeated_logo", "uncertain_page",
            "sku_without_model"} <= features
    assert {plan.language for plan in plans} == {"zh", "en", "mixed"}
    assert {plan.expected_route for plan in plans} == {"AUTO", "HYBRID", "HUMAN_ALL"}
    assert {p.page_type for plan in plans for p in plan.pages} == set("ABCD")
    assert all(4 <= len(plan.pages) <= 12 for plan in plans)
    assert sum(len(plan.pages) for plan in plans) >= 320


def test_a_garbled_page_looks_right_but_extracts_wrong_characters(golden):
    pdf, page = _pages_with(golden, "garbled_text")[0]
    doc = pymupdf.open(pdf)
    text = doc[page["page"] - 1].get_text()
    assert len(text.strip()) > 50
    assert not any(s["model"] in text for s in page["skus"] if s["model"])
    clean = next(p for p in json.loads(pdf.with_suffix(".truth.json").read_text())["pages"]
                 if p["skus"] and not {"garbled_text", "scanned"} & set(p["features"]))
    clean_text = doc[clean["page"] - 1].get_text()
    assert all(s["model"] in clean_text for s in clean["skus"] if s["model"])


def test_a_scanned_page_is_one_picture_without_text(golden):
    pages = _pages_with(golden, "scanned")
    assert pages
    for pdf, page in pages:
        scanned = pymupdf.open(pdf)[page["page"] - 1]
        assert scanned.get_text().strip() == ""
        [image] = scanned.get_image_info()
        assert image["bbox"] == pytest.approx(tuple(scanned.rect), abs=0.01)


def test_a_rotated_page_is_stored_with_rotate_90_and_keeps_its_text(golden):
    pdf, page = _pages_with(golden, "rotated")[0]
    rotated = pymupdf.open(pdf)[page["page"] - 1]
    assert rotated.rotation == 90
    assert rotated.rect.width > rotated.rect.height  # landscape as displayed, portrait as stored
    text = rotated.get_text()
    assert all(s["model"] in text for s in page["skus"] if s["model"])


def test_a_fragmented_photo_is_stored_as_tiles_whose_union_is_the_truth_bbox(golden):
    pdf, page = _pages_with(golden, "fragmented_image")[0]
    images = [pymupdf.Rect(i["bbox"]) for i in pymupdf.open(pdf)[page["page"] - 1].get_image_info()]
    fragmented = 0
    for bbox in {tuple(s["image_bbox"]) for s in page["skus"] if "image_bbox" in s}:
        target = pymupdf.Rect(bbox)
        inside = [r for r in images if target.contains(pymupdf.Point((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2))]
        if len(inside) >= 9:
            union = inside[0]
            for rect in inside[1:]:
                union |= rect
            assert tuple(union) == pytest.approx(tuple(target), abs=0.05)
            fragmented += 1
    assert fragmented


def test_the_command_prints_a_line_per_document_and_the_totals(tmp_path, capsys):
    assert main(["generate", "--out", str(tmp_path), "--seed", "5", "--documents", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("g01_") and lines[-1].startswith("total: 1 documents, ")
    assert sorted(p.name for p in tmp_path.iterdir()) == [lines[0].split()[0],
                                                          lines[0].split()[0].replace(".pdf", ".truth.json")]
