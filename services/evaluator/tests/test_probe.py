"""The probe reads real PDFs: a text page, a scan, a page stored sideways, a broken file."""

from __future__ import annotations

import io

import pymupdf
from PIL import Image

from skuflow_contracts.profile import profile_for
from skuflow_evaluator.probe import evaluate_file, glance, page_features


def _scan_jpeg(width_px: int, height_px: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width_px, height_px), (240, 240, 235)).save(buffer, "JPEG")
    return buffer.getvalue()


def _document() -> pymupdf.Document:
    doc = pymupdf.open()
    text = doc.new_page(width=595, height=842)
    for row in range(20):
        for col, word in enumerate(("AB-100", "Widget", "12.50")):
            text.insert_text((72 + col * 150, 100 + row * 20), f"{word}{row}", fontsize=10)
    scan = doc.new_page(width=595, height=842)
    scan.insert_image(scan.rect, stream=_scan_jpeg(1240, 1754))  # 150 dpi over A4
    sideways = doc.new_page(width=595, height=842)
    sideways.insert_text((72, 100), "Model XY-200 price 9.90 " * 3, fontsize=10)
    sideways.set_rotation(90)
    doc.new_page()
    return doc


def test_the_probe_measures_what_the_parser_will_face():
    doc = _document()
    text, scan, sideways = (page_features(doc[i], i + 1) for i in range(3))
    assert text.ocr_reason is None and text.column_alignment > 0.9 and not text.stored_rotated
    assert scan.ocr_reason == "no_text_layer" and 145 <= scan.scan_dpi <= 155
    assert sideways.stored_rotated and sideways.ocr_reason is None
    blank = glance(doc[3], 4)
    assert blank.text_chars == 0 and blank.picture_share == 0.0


def test_a_file_the_probe_cannot_read_comes_back_as_a_reason(tmp_path):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\nthis is not a PDF body")
    assert isinstance(evaluate_file(str(broken), profile_for("v1")), str)
    good = tmp_path / "good.pdf"
    _document().save(good)
    report = evaluate_file(str(good), profile_for("v1"))
    assert report.route == "HYBRID" and 2 in report.review_pages and report.blank_pages == [4]
