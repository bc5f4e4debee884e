"""The fallback chain on the hard pages of real catalogs: scans, broken text layers, rotation, tiles."""

import unicodedata

import pymupdf
import pytest
from pdf_samples import (
    PRODUCT_TEXT,
    born_digital,
    fragmented,
    garbled,
    rotated,
    scanned,
    special_images,
    spot_colour_picture,
)

from skuflow_parser.backends.pymupdf_backend import ImageCache, open_document, text_blocks
from skuflow_parser.domain.text_layer import garbled_share, ocr_reason
from skuflow_parser.pages import ParserConfig, parse_page

HASH = "abcdef01" * 8


def parse(data: bytes, config: ParserConfig | None = None):
    return parse_page(open_document(data), 0, HASH, ImageCache(), config)


def char_accuracy(found: str, expected: str) -> float:
    """1 − edit distance / length, over NFKC-normalized characters without whitespace."""
    a, b = ("".join(unicodedata.normalize("NFKC", text).split()) for text in (found, expected))
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (ca != cb))
    return 1 - row[len(b)] / max(1, len(b))


def test_a_born_digital_page_keeps_its_text_layer():
    parsed = parse(born_digital().tobytes()).page
    assert parsed.parser_backend == "pymupdf" and parsed.ocr_confidence is None
    assert "SF-0012" in parsed.raw_text and parsed.features["ocr_ratio"] == 0.0


def test_a_scanned_page_is_read_by_ocr_with_character_accuracy_of_at_least_95_percent():
    parsed = parse(scanned()).page
    assert parsed.parser_backend == "ocr" and parsed.ocr_confidence > 0.8
    assert char_accuracy(parsed.raw_text, PRODUCT_TEXT) >= 0.95
    top = min(parsed.text_blocks, key=lambda b: b.bbox[1])
    assert 90 <= top.bbox[1] <= 130 and 55 <= top.bbox[0] <= 75  # points of the page, not pixels
    assert all(block.confidence is not None for block in parsed.text_blocks)


def test_a_garbled_text_layer_is_detected_and_ocr_replaces_it():
    data = garbled()
    layer = "\n".join(b.text for b in text_blocks(open_document(data)[0]))
    assert garbled_share(layer) > 0.2 and garbled_share(PRODUCT_TEXT) == 0.0
    parsed = parse(data).page
    assert parsed.parser_backend == "ocr"
    assert char_accuracy(parsed.raw_text, PRODUCT_TEXT) >= 0.9


def test_without_ocr_a_scan_keeps_its_empty_text_layer():
    parsed = parse(scanned(), ParserConfig(ocr_enabled=False)).page
    assert parsed.parser_backend == "pymupdf" and parsed.text_blocks == []


def test_sparse_pages_without_a_large_picture_are_not_sent_to_ocr():
    assert ocr_reason("封面", coverage=0.01, picture_share=0.02) is None
    assert ocr_reason("", coverage=0.0, picture_share=0.95) == "no_text_layer"
    assert ocr_reason("第3页", coverage=0.0, picture_share=0.9) == "sparse_text_layer"


def test_rotated_pages_come_out_in_the_displayed_frame():
    upright = parse(born_digital().tobytes()).page
    turned = parse(rotated()).page
    assert (turned.width, turned.height, turned.rotation) == (842, 595, 90)
    # 90° clockwise: a box at (x, y) of the unrotated page is displayed at (height − y, x).
    first_upright, first_turned = upright.text_blocks[0].bbox, turned.text_blocks[0].bbox
    assert first_turned[0] == pytest.approx(842 - first_upright[3], abs=0.5)
    assert first_turned[1] == pytest.approx(first_upright[0], abs=0.5)
    assert turned.images[0].bbox == pytest.approx((842 - 640, 60, 842 - 420, 300), abs=0.5)


def test_tiles_of_one_picture_become_one_rasterized_image():
    parsed = parse(fragmented())
    [image] = parsed.page.images
    assert image.is_fragmented and image.bbox == pytest.approx((100, 200, 340, 440), abs=0.5)
    assert parsed.images[0].data.startswith(b"\x89PNG") and image.width_px == 500
    assert parsed.page.features["fragmented_images"] == 1.0


def test_cmyk_and_alpha_images_are_exported_as_viewable_rgb():
    parsed = parse(special_images())
    assert len(parsed.images) == 3
    for placed in parsed.images:
        pix = pymupdf.Pixmap(placed.data)
        assert pix.colorspace.n in (1, 3)
    assert [img.ext for img in parsed.page.images].count("png") >= 2


def test_a_spot_colour_picture_is_exported_as_rgb_in_its_ink_colour():
    parsed = parse(spot_colour_picture())
    [placed], [region] = parsed.images, parsed.page.images
    assert region.bbox == pytest.approx((100, 100, 400, 250)) and region.ext == "png"
    pix = pymupdf.Pixmap(placed.data)
    no_ink, full_ink = pix.pixel(0, 0), pix.pixel(1, 0)
    assert pix.colorspace.n == 3 and no_ink == (255, 255, 255)
    assert full_ink[0] > 200 and full_ink[1] < 60  # magenta, not the black of a tint read as grey


def test_an_image_shared_by_several_pages_is_decoded_once():
    doc = pymupdf.open()
    logo = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 50, 20), False).tobytes("png")
    for _ in range(3):
        doc.new_page().insert_image(pymupdf.Rect(10, 10, 60, 30), stream=logo)
    doc = open_document(doc.tobytes())
    cache = ImageCache()
    hashes = {parse_page(doc, i, HASH, cache).page.images[0].content_hash for i in range(3)}
    assert len(hashes) == 1 and len(cache.by_xref) == 1


def test_a_glyph_box_many_times_its_font_size_tall_is_fitted_to_its_baseline():
    """A Word font with broken metrics gave every 10 pt cell of a table a box 120 pt tall (Lasertek's
    floodlight sheet): the rows merged into one and no SKU was read."""
    from skuflow_parser.backends.pymupdf_backend import _fitted

    span = {"size": 10.0, "ascender": 0.8, "descender": -0.2}
    assert _fitted((85.0, 278.5, 147.0, 398.2), 278.5, span, horizontal=True) == (85.0, 270.5, 147.0, 280.5)
    assert _fitted((85.0, 270.0, 147.0, 281.0), 278.5, span, horizontal=True) == (85.0, 270.0, 147.0, 281.0)
    assert _fitted((85.0, 100.0, 95.0, 220.0), 100.0, span, horizontal=False) == (85.0, 100.0, 95.0, 220.0)
