"""Scans as they come: low-resolution page images read at a resolution that suits OCR, text drawn as
outlines read like a scan, and pictures whose soft mask has another size."""

import io

import numpy as np
import pymupdf
import pytest
from pdf_samples import PAGE, PRODUCT_TEXT, born_digital, scanned
from PIL import Image

from skuflow_parser.backends import ocr_backend
from skuflow_parser.backends.ocr_backend import across_rows, ocr_resolution, scan_resolution
from skuflow_parser.backends.ocr_engines import DEFAULT_TUNING, engine
from skuflow_parser.backends.pymupdf_backend import ImageCache, open_document
from skuflow_parser.domain.letter_spacing import is_loose
from skuflow_parser.domain.text_layer import (
    MIN_OUTLINE_PATHS,
    MIN_OUTLINE_SEGMENTS,
    MIN_TEXT_PICTURES,
    Drawn,
    ocr_reason,
)
from skuflow_parser.pages import parse_page


@pytest.mark.parametrize("scanned_at, read_at", [(None, 200), (72, 150), (90, 150), (110, 165), (144, 200),
                                                 (300, 200)])
def test_low_resolution_scans_are_upscaled_to_150_dpi_and_others_read_at_200(scanned_at, read_at):
    assert ocr_resolution(200, scanned_at) == read_at


@pytest.mark.parametrize("scanned_at, long_side, read_at", [
    (600, 421, 400),  # a 600 dpi photo on a page half A4's size: read with as many pixels as A4 at 200 dpi
    (1200, 84, 1200),  # a tagged 1200 dpi photo on a 84-point page: all of its 1400 pixels
    (288, 377, 288),  # a phone photo placed at 288 dpi: its own pixels
    (300, 1190, 200),  # an A3 scan: 200 dpi already gives it more pixels than A4 has
])
def test_a_photo_on_a_page_smaller_than_a4_is_read_with_its_own_pixels(scanned_at, long_side, read_at):
    assert ocr_resolution(200, scanned_at, long_side) == read_at


def test_the_resolution_of_a_page_filling_picture_is_measured():
    page = open_document(scanned(dpi=90))[0]
    assert scan_resolution(page) == pytest.approx(90, abs=1)
    assert scan_resolution(born_digital()[0]) is None


def test_a_phone_quality_scan_at_90_dpi_is_read_by_ocr_with_its_code_and_price():
    parsed = parse_page(open_document(scanned(dpi=90)), 0, "f" * 64, ImageCache()).page
    text = "".join(block.text for block in parsed.text_blocks)
    assert parsed.parser_backend == "ocr" and "SF-0012" in text and "35.00" in text


def test_a_page_drawn_as_outlines_is_read_by_ocr():
    assert ocr_reason("", 0.0, 0.0, drawn=Drawn(paths=1200)) == "outlined_text"
    assert ocr_reason("", 0.0, 0.0, drawn=Drawn(paths=20, segments=80)) is None  # rules and frames: a blank page
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    for n in range(400):  # hundreds of filled shapes and no text layer, as a 'text to outlines' export prints
        x, y = 60 + (n % 40) * 12, 100 + (n // 40) * 20
        page.draw_rect(pymupdf.Rect(x, y, x + 8, y + 12), color=(0, 0, 0), fill=(0, 0, 0))
    parsed = parse_page(pymupdf.open(stream=doc.tobytes()), 0, "f" * 64, ImageCache()).page
    assert parsed.parser_backend == "ocr"


def test_text_printed_as_a_picture_per_run_is_read_by_ocr():
    """Word exports text set with effects as one small picture per run and no text layer."""
    assert ocr_reason("", 0.0, 0.05, pictures=MIN_TEXT_PICTURES) == "text_as_pictures"
    assert ocr_reason("", 0.0, 0.05, pictures=MIN_TEXT_PICTURES - 1) is None  # a few photos on a blank page
    assert ocr_reason(PRODUCT_TEXT, 0.2, 0.05, pictures=200) is None  # a text layer of its own: a photo grid
    run = Image.new("L", (120, 24), 255)
    out = io.BytesIO()
    run.save(out, "PNG")
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    for n in range(MIN_TEXT_PICTURES):
        x, y = 60 + (n % 4) * 120, 100 + (n // 4) * 30
        page.insert_image(pymupdf.Rect(x, y, x + 100, y + 20), stream=out.getvalue())
    parsed = parse_page(pymupdf.open(stream=doc.tobytes()), 0, "f" * 64, ImageCache()).page
    assert parsed.parser_backend == "ocr"


def test_a_soft_mask_of_another_size_than_its_picture_does_not_fail_the_page():
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    page.insert_text((60, 80), PRODUCT_TEXT.splitlines()[1], fontname="china-s", fontsize=14)
    rgba = Image.new("RGBA", (200, 100), (200, 40, 40, 180))
    out = io.BytesIO()
    rgba.save(out, "PNG")
    page.insert_image(pymupdf.Rect(100, 200, 300, 300), stream=out.getvalue())
    smask = next(int(doc.xref_get_key(x, "SMask")[1].split()[0]) for x in range(1, doc.xref_length())
                 if doc.xref_get_key(x, "SMask")[0] == "xref")
    small = Image.new("L", (50, 25), 128)
    doc.update_stream(smask, small.tobytes(), new=False, compress=True)
    doc.xref_set_key(smask, "Width", "50")
    doc.xref_set_key(smask, "Height", "25")
    parsed = parse_page(pymupdf.open(stream=doc.tobytes()), 0, "f" * 64, ImageCache()).page
    assert parsed.status == "ok" and len(parsed.images) == 1 and parsed.images[0].width_px == 200


def price_list_scan(degrees: float, code: str, price_x: float, row: float) -> bytes:
    """Ten rows of a code at the left and a price at ``price_x``, scanned at 150 dpi turned by
    ``degrees`` (a quarter turn lays the page on its side, its picture the turned page's size)."""
    source = pymupdf.open()
    page = source.new_page(width=PAGE.width, height=PAGE.height)
    for n in range(10):
        page.insert_text((50, 120 + row * n), code.format(n=n), fontsize=12)
        page.insert_text((price_x, 120 + row * n), f"{12 + n}.50", fontsize=12)
    image = page.get_pixmap(matrix=pymupdf.Matrix(150 / 72, 150 / 72).prerotate(degrees), alpha=False)
    sideways = degrees % 180 == 90
    frame = pymupdf.Rect(0, 0, PAGE.height, PAGE.width) if sideways else PAGE
    doc = pymupdf.open()
    doc.new_page(width=frame.width, height=frame.height).insert_image(frame, stream=image.tobytes("jpeg"),
                                                                       keep_proportion=False)
    return doc.tobytes()


def test_a_scan_skewed_by_three_degrees_reads_each_code_level_with_its_price():
    """Across 450 points a 3° skew climbs 24 points, more than a row: unlevelled, each code would
    stand beside the next row's price."""
    scan = price_list_scan(3.0, "AB-{n}10", price_x=500, row=22)
    parsed = parse_page(open_document(scan), 0, "f" * 64, ImageCache()).page
    middle = {b.text: (b.bbox[1] + b.bbox[3]) / 2 for b in parsed.text_blocks}
    rows = [(middle[f"AB-{n}10"], middle[f"{12 + n}.50"]) for n in range(10)
            if f"AB-{n}10" in middle and f"{12 + n}.50" in middle]
    assert len(rows) >= 6
    assert all(abs(code - price) < 6 for code, price in rows)


@pytest.mark.parametrize("turn", [90, 270])
def test_a_page_scanned_on_its_side_is_turned_to_read_upright(turn):
    scan = price_list_scan(turn, "Article AB-{n}51 steel hinge", price_x=460, row=26)
    parsed = parse_page(open_document(scan), 0, "f" * 64, ImageCache()).page
    assert (parsed.width, parsed.height) == (PAGE.width, PAGE.height) and parsed.rotation in (90, 270)
    middle = {b.text: ((b.bbox[0] + b.bbox[2]) / 2, (b.bbox[1] + b.bbox[3]) / 2) for b in parsed.text_blocks}
    codes = [middle[k] for k in middle if "AB-" in k]
    prices = [middle[k] for k in middle if k.endswith(".50")]
    assert len(codes) >= 8 and len(prices) >= 8
    assert max(x for x, _ in codes) < min(x for x, _ in prices)  # codes left of their prices, as printed
    first, last = min(codes, key=lambda c: c[1]), max(codes, key=lambda c: c[1])
    assert last[1] - first[1] > 150  # rows run down the page


def vertical_menu(dishes: list[str]) -> bytes:
    """Columns of Chinese standing on end, as menus set them, right to left, scanned at 150 dpi."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    for n, dish in enumerate(dishes):
        for k, ch in enumerate(dish):
            page.insert_text((480 - 60 * n, 120 + 34 * k), ch, fontname="china-t", fontsize=28)
    image = page.get_pixmap(dpi=150, alpha=False).tobytes("jpeg")
    scan = pymupdf.open()
    scan.new_page(width=PAGE.width, height=PAGE.height).insert_image(PAGE, stream=image)
    return scan.tobytes()


def test_a_page_of_vertical_chinese_is_read_down_its_columns():
    """Each column becomes a line, read top to bottom, the first column (the rightmost) at the top."""
    dishes = ["牛肉麵一百二十元", "陽春麵五十元整", "餛飩湯六十元整", "滷肉飯三十五元", "排骨飯九十五元"]
    parsed = parse_page(open_document(vertical_menu(dishes)), 0, "f" * 64, ImageCache()).page
    assert parsed.rotation == 270 and (parsed.width, parsed.height) == (PAGE.height, PAGE.width)
    lines = sorted(parsed.text_blocks, key=lambda b: b.bbox[1])
    assert [b.text for b in lines] == dishes


def letter_spaced_menu(dishes: list[tuple[str, str]], row: float = 34) -> np.ndarray:
    """A menu board's names spread across their column, rows closer than the characters of a name, and
    each price at the row's end: the page's pixels at 150 dpi."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    for n, (dish, price) in enumerate(dishes):
        for k, ch in enumerate(dish):
            page.insert_text((60 + 240 / (len(dish) - 1) * k, 120 + row * n), ch, fontname="china-t", fontsize=26)
        page.insert_text((420, 120 + row * n), price, fontname="helv" if price.isascii() else "china-t", fontsize=26)
    pix = page.get_pixmap(dpi=150, alpha=False)
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3).copy()


def test_a_letter_spaced_menu_is_read_row_by_row():
    """The detector joins the names' characters down the rows or leaves them one by one; gathered into
    rows and read again, each name comes out whole."""
    dishes = [("魚肚飯", "90"), ("椒麻雞腿飯", "85"), ("大雞腿飯", "75"), ("辣味棒腿飯", "60"), ("滷雞腿飯", "60"),
              ("炸雞排飯", "75"), ("炸排骨飯", "65"), ("鯖魚飯", "65"), ("宮保雞丁飯", "65")]
    image = letter_spaced_menu(dishes)
    found = engine(DEFAULT_TUNING).read(image)
    assert is_loose([(line.corners, line.text) for line in found])
    assert sum(1 for dish, _ in dishes if any(dish in line.text for line in found)) <= 1
    read = [line.text.replace(" ", "") for line in across_rows(image, found, DEFAULT_TUNING)]
    assert all(any(dish in text for text in read) for dish, _ in dishes)
    assert "魚肚飯90" in read  # a price close enough to its name is read on its row


def test_a_letter_spaced_menu_photographed_on_its_side_is_turned_and_read_row_by_row():
    """A laminated menu photographed on its side: its prices stand on end, so it is read a quarter turn
    either way, and only the way up reads its spread names whole, once its rows are read one by one."""
    dishes = [("魚肚飯", "90元"), ("椒麻雞腿飯", "85元"), ("大雞腿飯", "75元"), ("辣味棒腿飯", "60元"),
              ("滷雞腿飯", "60元"), ("炸雞排飯", "75元"), ("炸排骨飯", "65元"), ("鯖魚飯", "65元"),
              ("宮保雞丁飯", "65元")]
    sideways = np.ascontiguousarray(np.rot90(letter_spaced_menu(dishes, row=52), -1))  # its top to the right
    photo = io.BytesIO()
    Image.fromarray(sideways).save(photo, format="JPEG", quality=90)
    doc = pymupdf.open()
    doc.new_page(width=PAGE.height, height=PAGE.width).insert_image(pymupdf.Rect(0, 0, PAGE.height, PAGE.width),
                                                                     stream=photo.getvalue())
    parsed = parse_page(open_document(doc.tobytes()), 0, "f" * 64, ImageCache()).page
    assert parsed.rotation == 270
    read = [b.text.replace(" ", "") for b in parsed.text_blocks]
    assert sum(1 for dish, _ in dishes if any(dish in text for text in read)) >= 2 * len(dishes) // 3


def test_an_engine_that_cannot_read_a_row_alone_leaves_the_letter_spaced_page_as_detected(monkeypatch):
    """PaddleOCR offers no recognition alone here: the characters its rows would replace are kept."""
    image = letter_spaced_menu([("魚肚飯", "90"), ("椒麻雞腿飯", "85"), ("大雞腿飯", "75"), ("辣味棒腿飯", "60"),
                                ("滷雞腿飯", "60"), ("炸雞排飯", "75"), ("炸排骨飯", "65")])
    rapid = engine(DEFAULT_TUNING)
    found = rapid.read(image)

    class DetectOnly:
        def recognize(self, image, boxes):
            return []

    monkeypatch.setattr(ocr_backend, "engine", lambda tuning: DetectOnly())
    assert across_rows(image, found, DEFAULT_TUNING) == found


def test_text_outlined_as_a_few_long_paths_is_read_by_ocr():
    """Qt's PDF export draws each text run as one path of thousands of segments, not a path a glyph."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    for run in range(5):
        shape = page.new_shape()
        for n in range(500):  # a run of glyph strokes, all in one path
            x, y = 60 + (n % 50) * 9, 100 + run * 120 + (n // 50) * 10
            shape.draw_line((x, y), (x + 6, y + 8))
        shape.finish(color=(0, 0, 0))
        shape.commit()
    drawn = Drawn.of(page.get_cdrawings())
    assert drawn.paths < MIN_OUTLINE_PATHS and drawn.segments >= MIN_OUTLINE_SEGMENTS
    parsed = parse_page(pymupdf.open(stream=doc.tobytes()), 0, "f" * 64, ImageCache()).page
    assert parsed.parser_backend == "ocr"
