"""Product photos cut out of a scanned page, so a scanned catalogue's products can be bound to them."""

import numpy as np
import pymupdf
from pdf_samples import PAGE, PRODUCT_TEXT, price_table, scanned

from skuflow_parser.backends.pymupdf_backend import ImageCache, open_document
from skuflow_parser.domain.scan_pictures import pictures
from skuflow_parser.pages import parse_page

PHOTO = (60.0, 420.0, 300.0, 640.0)  # where pdf_samples places its picture


def iou(a, b) -> float:
    inside = abs(pymupdf.Rect(a) & pymupdf.Rect(b))
    return inside / (abs(pymupdf.Rect(a)) + abs(pymupdf.Rect(b)) - inside)


def paper(height: int = 1200, width: int = 850) -> np.ndarray:
    rng = np.random.default_rng(7)
    return np.clip(rng.normal(235, 4, (height, width, 3)), 0, 255).astype(np.uint8)  # off-white, scanner noise


def test_a_photo_is_found_and_text_rules_grids_and_flat_panels_are_not():
    page = paper()
    rng = np.random.default_rng(1)
    page[100:400, 80:380] = rng.integers(0, 255, (300, 300, 3), dtype=np.uint8)  # a photo: detail everywhere
    page[100:130, 450:800] = 20  # a line of text, read by OCR as a word
    page[500:800:40, 80:780] = 0  # a table's rules ...
    page[500:780, 80:780:100] = 0  # ... and its columns
    page[900:1100, 450:800] = (200, 120, 40)  # a flat tinted panel behind text
    page[950:980, 480:760] = 255
    found = pictures(page, [(450, 100, 800, 130), (480, 950, 760, 980)])
    assert len(found) == 1 and iou(found[0], (80, 100, 380, 400)) > 0.9


def scanned_with_photo() -> bytes:
    """A product card (text and a photo: a shaded object, detail everywhere) scanned at 150 dpi."""
    rows = np.linspace(30, 220, 400, dtype=np.uint8)[:, None, None]
    photo = np.broadcast_to(rows, (400, 440, 3)).copy()
    photo[100:300, 120:320] = (180, 60, 30)
    photo[100:300, 120:320, 0] -= np.linspace(0, 120, 200, dtype=np.uint8)[None, :]
    card = pymupdf.open()
    page = card.new_page(width=PAGE.width, height=PAGE.height)
    page.insert_textbox(pymupdf.Rect(60, 100, 540, 400), PRODUCT_TEXT, fontname="china-s", fontsize=14)
    page.insert_image(pymupdf.Rect(*PHOTO), pixmap=pymupdf.Pixmap(pymupdf.csRGB, 440, 400, photo.tobytes(), False),
                      keep_proportion=False)
    scan = pymupdf.open()
    scan.new_page(width=PAGE.width, height=PAGE.height).insert_image(
        PAGE, stream=page.get_pixmap(dpi=150).tobytes("jpeg", jpg_quality=75))
    return scan.tobytes()


def test_a_scanned_page_keeps_its_scan_and_gains_its_photo_as_an_image_of_its_own():
    parsed = parse_page(open_document(scanned_with_photo()), 0, "f" * 64, ImageCache())
    cut = [placed for placed in parsed.images if iou(placed.region.bbox, PHOTO) > 0.9]
    assert parsed.page.parser_backend == "ocr" and len(parsed.images) == 2 and len(cut) == 1
    assert abs(pymupdf.Pixmap(cut[0].data).width - cut[0].region.width_px) <= 1  # rendered out of the scan as a PNG
    assert [image.image_id for image in parsed.page.images] == [placed.region.image_id for placed in parsed.images]


def test_a_scanned_price_table_gives_no_picture():
    image = price_table(rows=12)[0].get_pixmap(dpi=150).tobytes("jpeg", jpg_quality=75)
    doc = pymupdf.open()
    doc.new_page(width=PAGE.width, height=PAGE.height).insert_image(PAGE, stream=image)
    parsed = parse_page(open_document(doc.tobytes()), 0, "f" * 64, ImageCache())
    assert parsed.page.parser_backend == "ocr" and len(parsed.images) == 1  # the scan alone


def test_a_flat_two_tone_graphic_is_no_photo():
    parsed = parse_page(open_document(scanned()), 0, "f" * 64, ImageCache())  # a grey block with one lighter square
    assert parsed.page.parser_backend == "ocr" and len(parsed.images) == 1
