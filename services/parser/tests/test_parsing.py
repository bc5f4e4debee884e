"""The PyMuPDF backend on PDFs made in the test: text with boxes, images, and unreadable files."""

import pymupdf
import pytest

from skuflow_parser.backends.pymupdf_backend import ImageCache, open_document
from skuflow_parser.domain.document import UnreadableDocument, text_coverage
from skuflow_parser.pages import parse_page
from skuflow_parser.pipeline import parse_and_store
from skuflow_platform.storage import LocalStorage

HASH = "0123456789abcdef" * 4


def _pdf_with_product() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_textbox(pymupdf.Rect(60, 300, 260, 360), "品名：保温杯\n型号：B-200\n价格：¥35.00",
                        fontname="china-s", fontsize=10)
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 700, 650), False)
    pix.set_rect(pix.irect, (10, 120, 200))
    page.insert_image(pymupdf.Rect(60, 80, 260, 280), stream=pix.tobytes("png"), keep_proportion=False)
    doc.new_page(width=595, height=842)  # blank second page
    return doc.tobytes()


def test_text_lines_and_images_come_out_in_points_from_the_top_left():
    doc = open_document(_pdf_with_product())
    parsed = parse_page(doc, 0, HASH, ImageCache())
    page = parsed.page
    assert (page.page, page.width, page.height, page.parser_backend) == (1, 595, 842, "pymupdf")
    [block] = page.text_blocks
    assert [line.text for line in block.lines] == ["品名：保温杯", "型号：B-200", "价格：¥35.00"]
    assert 295 <= block.bbox[1] < block.bbox[3] <= 360 and block.font_size == 10
    [image] = page.images
    assert image.image_id == "img_01234567_p01_001"
    assert image.bbox == (60, 80, 260, 280) and (image.width_px, image.height_px) == (700, 650)
    assert parsed.images[0].data.startswith(b"\x89PNG")
    assert 0 < page.text_coverage < 0.05


def test_a_blank_page_has_no_blocks_and_no_coverage():
    page = parse_page(open_document(_pdf_with_product()), 1, HASH, ImageCache()).page
    assert (page.text_blocks, page.images, page.text_coverage) == ([], [], 0.0)


def test_pages_and_images_are_stored_under_deterministic_keys(tmp_path):
    storage = LocalStorage(tmp_path)
    first = parse_and_store(_pdf_with_product(), job_id="j1", file_hash=HASH, storage=storage)
    again = parse_and_store(_pdf_with_product(), job_id="j1", file_hash=HASH, storage=storage)
    assert [p.ir_uri for p in first] == [p.ir_uri for p in again] == [
        "local://jobs/j1/pages/0001/ir.json", "local://jobs/j1/pages/0002/ir.json"]
    assert first[0].ir_hash == again[0].ir_hash
    image = first[0].page.images[0]
    assert storage.get(image.uri).startswith(b"\x89PNG")


@pytest.mark.parametrize("data, reason", [
    (b"this is not a pdf at all", "corrupt_pdf"),
    (b"%PDF-1.7\n%%EOF", "corrupt_pdf"),
    (b"%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage without xref", "empty_pdf"),
])
def test_unreadable_documents_say_why(data, reason):
    with pytest.raises(UnreadableDocument) as caught:
        open_document(data)
    assert caught.value.reason == reason


def test_an_encrypted_pdf_is_refused_as_a_security_issue():
    doc = pymupdf.open()
    doc.new_page()
    data = doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="owner")
    with pytest.raises(UnreadableDocument) as caught:
        open_document(data)
    assert caught.value.reason == "security:encrypted_pdf"


def test_text_coverage_clips_to_the_page_and_caps_at_one():
    assert text_coverage([(0, 0, 50, 100)], 100, 100) == 0.5
    assert text_coverage([(-50, -50, 200, 200), (0, 0, 100, 100)], 100, 100) == 1.0
