"""OCR engine selection: RapidOCR by default, PaddleOCR when selected and installed, else a logged fallback."""

import importlib.machinery
import logging
import sys
import types

import numpy as np
import pymupdf
import pytest

from skuflow_parser.backends.ocr_engines import MAX_SIDE_PX, OcrTuning, PaddleOcr, RapidOcr, engine
from skuflow_parser.domain.corners import bounds
from skuflow_parser.settings import ParserSettings


@pytest.fixture(autouse=True)
def fresh_engines():
    engine.cache_clear()
    yield
    engine.cache_clear()


@pytest.fixture
def fake_paddleocr(monkeypatch):
    """A stand-in for the paddleocr package (too heavy to install for a test) that records its options."""
    created = {}

    class PaddleOCR:
        def __init__(self, **options):
            created.update(options)

        def predict(self, image):
            return [{"rec_polys": [np.array([[10, 20], [110, 20], [110, 44], [10, 44]])], "rec_texts": ["型号：A-1"],
                     "rec_scores": [np.float32(0.97)]}]

    module = types.ModuleType("paddleocr")
    module.__spec__ = importlib.machinery.ModuleSpec("paddleocr", None)
    module.PaddleOCR = PaddleOCR
    monkeypatch.setitem(sys.modules, "paddleocr", module)
    return created


def test_rapidocr_is_the_default_and_gets_batched_recognition_and_bounded_detection():
    reader = engine(OcrTuning(rec_batch_size=12, det_max_side=1024))
    assert isinstance(reader, RapidOcr) and reader.name == "rapidocr"
    config = reader._ocr.cfg
    assert config.Rec.rec_batch_num == 12 and config.Global.max_side_len == MAX_SIDE_PX
    assert (config.Det.limit_type, config.Det.limit_side_len) == ("max", 1024)


def test_rapidocr_reads_a_line_of_traditional_chinese_and_a_blank_image_as_nothing():
    """The bundled PP-OCRv6 models read Traditional Chinese menu names (v4 mobile dropped or misread
    most of them); a blank image gives no lines rather than failing."""
    document = pymupdf.open()
    page = document.new_page(width=260, height=50)
    page.insert_text((12, 32), "鐵觀音拿鐵65", fontname="china-t", fontsize=20)
    pix = page.get_pixmap(dpi=200)
    reader = engine(OcrTuning())
    lines = reader.read(np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3))
    assert "".join(line.text for line in lines).replace(" ", "") == "鐵觀音拿鐵65"
    assert all(line.confidence > 0.8 and len(line.corners) == 4 for line in lines)
    words = [word for line in lines for word, _ in line.words]
    assert "".join(words) == "鐵觀音拿鐵65" and "鐵" in words  # each Chinese character placed on its own
    assert reader.read(np.full((80, 200, 3), 255, dtype=np.uint8)) == []


def test_rapidocr_reads_a_box_of_the_page_as_one_line_with_its_words_placed_on_the_page():
    """Recognition alone, for rows gathered from a letter-spaced menu: the box is one line, however far
    apart its characters stand, and each character is placed inside it in page pixels."""
    document = pymupdf.open()
    page = document.new_page(width=400, height=80)
    for n, ch in enumerate("牛肉麵"):
        page.insert_text((20 + 80 * n, 52), ch, fontname="china-t", fontsize=20)
    page.insert_text((300, 52), "120", fontname="helv", fontsize=20)
    pix = page.get_pixmap(dpi=200)
    image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3)
    box = [[30.0, 90.0], [1100.0, 90.0], [1100.0, 170.0], [30.0, 170.0]]
    [line] = engine(OcrTuning()).recognize(image, [box])
    assert line.text.replace(" ", "") == "牛肉麵120" and line.corners == box and line.confidence > 0.8
    placed = {word: bounds(corners) for word, corners in line.words}
    assert placed["牛"][0] < placed["肉"][0] < placed["麵"][0]
    assert all(30 <= x0 < x1 <= 1100 and 89 <= y0 < y1 <= 171 for x0, y0, x1, y1 in placed.values())
    assert engine(OcrTuning()).recognize(image, []) == []


def test_paddleocr_selected_but_not_installed_falls_back_to_rapidocr_with_an_error(monkeypatch, caplog):
    monkeypatch.setitem(sys.modules, "paddleocr", None)  # not importable, even where it is installed
    with caplog.at_level(logging.ERROR):
        reader = engine(OcrTuning(engine="paddleocr"))
    assert isinstance(reader, RapidOcr)
    assert "paddleocr package is not installed" in caplog.text


def test_paddleocr_is_used_when_selected_and_installed(fake_paddleocr):
    reader = engine(OcrTuning(engine="paddleocr", rec_batch_size=16, det_max_side=1280))
    assert isinstance(reader, PaddleOcr)
    assert fake_paddleocr["text_recognition_batch_size"] == 16 and fake_paddleocr["text_det_limit_side_len"] == 1280
    [line] = reader.read(np.zeros((60, 200, 3), dtype=np.uint8))
    assert line.corners[0] == [10, 20] and line.text == "型号：A-1" and line.confidence == pytest.approx(0.97)
    assert line.words == ()


def test_the_engine_and_its_tuning_come_from_settings(monkeypatch):
    monkeypatch.setenv("SKUFLOW_OCR_ENGINE", "paddleocr")
    monkeypatch.setenv("SKUFLOW_OCR_REC_BATCH_SIZE", "12")
    monkeypatch.setenv("SKUFLOW_PAGE_SCREENSHOTS", "always")
    monkeypatch.setenv("SKUFLOW_IMAGE_DECORATION_FLOOR_PT", "6")
    assert ParserSettings().parser_config().flatten_photos is False
    monkeypatch.setenv("SKUFLOW_OCR_FLATTEN_PHOTOS", "true")
    config = ParserSettings().parser_config()
    assert config.ocr == OcrTuning(engine="paddleocr", rec_batch_size=12) and config.flatten_photos
    assert (config.screenshots, config.decoration_floor) == ("always", 6.0)


def test_detected_boxes_are_trimmed_around_their_middle_to_the_height_of_the_text():
    from skuflow_parser.backends.ocr_engines import BOX_TRIM, _trimmed

    corners = _trimmed([[10, 100], [90, 100], [90, 150], [10, 150]])
    assert [x for x, _ in corners] == [10, 90, 90, 10]
    assert corners[0][1] == pytest.approx(125 - 25 * BOX_TRIM) and corners[2][1] == pytest.approx(125 + 25 * BOX_TRIM)


def test_warm_up_reads_a_line_so_every_model_is_loaded_before_the_first_page():
    from skuflow_parser.backends.ocr_backend import WARM_UP_TEXT, warm_up

    assert warm_up() == WARM_UP_TEXT


def test_the_int8_detector_finds_the_lines_the_float_one_finds_and_is_chosen_by_settings(monkeypatch):
    """The detector quantized by ``skuflow ocr-model`` (committed) loads, and a scanned product list reads
    as through the float one; its answers are recorded on an OCR tape apart from the float detector's."""
    from pdf_samples import scanned

    from skuflow_parser.backends.ocr_backend import WARM_UP_TEXT, ocr_page, warm_up
    from skuflow_parser.backends.ocr_engines import INT8_DETECTOR, int8_digest
    from skuflow_parser.backends.pymupdf_backend import open_document

    int8 = OcrTuning(det_model="int8")
    assert INT8_DETECTOR.is_file() and warm_up(int8) == WARM_UP_TEXT
    assert engine(int8)._ocr.cfg.Det.model_path == str(INT8_DETECTOR)
    assert engine(OcrTuning())._ocr.cfg.Det.model_path is None  # the wheel's float detector
    page = open_document(scanned())[0]
    texts = {tuning.det_model: " ".join(block.text for block in ocr_page(page, tuning=tuning).blocks)
             for tuning in (OcrTuning(), int8)}
    for text in texts.values():  # (the float detector also reads a stray mark as '■')
        assert all(field in text for field in ("不锈钢保温杯", "SF-0012", "500ml", "¥35.00"))
    # the OCR tape keys its calls apart from the float detector's, and by the model file's content
    assert engine(int8)._tuning == [*engine(OcrTuning())._tuning, f"det-int8:{int8_digest()}"]
    monkeypatch.setenv("SKUFLOW_OCR_DET_MODEL", "int8")
    assert ParserSettings().parser_config().ocr == int8
    monkeypatch.setenv("SKUFLOW_OCR_DET_MODEL", "int4")
    with pytest.raises(ValueError, match="int8"):
        ParserSettings()
