"""Page screenshots are rendered only for pages a person or a later step will look at as a picture."""

import pymupdf
import pytest
from pdf_samples import born_digital, fragmented, scanned

from skuflow_contracts.ir import ImageRegion, ParsedPage, TextBlock
from skuflow_parser.backends.pymupdf_backend import ImageCache, open_document
from skuflow_parser.domain.screenshots import wants_screenshot
from skuflow_parser.pages import ParserConfig, parse_page
from skuflow_parser.pipeline import parse_and_store
from skuflow_platform.storage import LocalStorage

HASH = "c0ffee00" * 8
NO_OCR = ParserConfig(ocr_enabled=False)  # the rule, not OCR, is under test here


def shot(data: bytes, config: ParserConfig = NO_OCR) -> bytes | None:
    return parse_page(open_document(data), 0, HASH, ImageCache(), config).screenshot


def test_a_born_digital_page_gets_no_screenshot_unless_always():
    data = born_digital().tobytes()
    assert shot(data) is None
    assert shot(data, ParserConfig(ocr_enabled=False, screenshots="always")) is not None


@pytest.mark.parametrize("data", [scanned(), fragmented()], ids=["scan", "fragmented"])
def test_scans_and_fragmented_pictures_get_a_moderate_dpi_jpeg(data):
    picture = shot(data)
    assert picture is not None and picture.startswith(b"\xff\xd8")
    assert abs(pymupdf.Pixmap(picture).width - 595 * 100 / 72) < 2  # 100 dpi
    assert shot(data, ParserConfig(ocr_enabled=False, screenshots="never")) is None


def test_the_rule_covers_ocr_pages_pages_without_text_and_tiles():
    text = [TextBlock(block_id=0, bbox=(0, 0, 1, 1), text="型号：A-1")]
    page = ParsedPage(page=1, width=100, height=100, parser_backend="pymupdf", text_blocks=text)
    tiles = ImageRegion(image_id="i", bbox=(0, 0, 9, 9), width_px=9, height_px=9, content_hash="h", is_fragmented=True)
    assert not wants_screenshot("needed", page, text_layer_rejected=False)
    assert wants_screenshot("needed", page.model_copy(update={"parser_backend": "ocr"}), text_layer_rejected=True)
    assert wants_screenshot("needed", page.model_copy(update={"text_blocks": []}), text_layer_rejected=False)
    assert wants_screenshot("needed", page.model_copy(update={"images": [tiles]}), text_layer_rejected=False)


def test_the_screenshot_is_stored_and_the_ir_points_at_it(tmp_path):
    storage = LocalStorage(tmp_path)
    [scan] = parse_and_store(scanned(), job_id="j", file_hash=HASH, storage=storage, config=NO_OCR)
    assert scan.page.screenshot_uri == "local://jobs/j/pages/0001/screenshot.jpeg"
    assert storage.get(scan.page.screenshot_uri).startswith(b"\xff\xd8")
    [digital] = parse_and_store(born_digital().tobytes(), job_id="k", file_hash=HASH, storage=storage, config=NO_OCR)
    assert digital.page.screenshot_uri is None and not (tmp_path / "jobs/k/pages/0001/screenshot.jpeg").exists()
