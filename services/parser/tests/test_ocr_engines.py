"""OCR engine selection: RapidOCR by default, PaddleOCR when selected and installed, else a logged fallback."""

import importlib.machinery
import logging
import sys
import types

import numpy as np
import pytest

from skuflow_parser.backends.ocr_engines import MAX_SIDE_PX, OcrTuning, PaddleOcr, RapidOcr, engine
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
    ocr = reader._ocr
    assert ocr.text_rec.rec_batch_num == 12 and ocr.max_side_len == MAX_SIDE_PX
    assert (ocr.text_det.limit_type, ocr.text_det.limit_side_len) == ("max", 1024)


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
    [(corners, text, score)] = reader.read(np.zeros((60, 200, 3), dtype=np.uint8))
    assert corners[0] == [10, 20] and text == "型号：A-1" and score == pytest.approx(0.97)


def test_the_engine_and_its_tuning_come_from_settings(monkeypatch):
    monkeypatch.setenv("SKUFLOW_OCR_ENGINE", "paddleocr")
    monkeypatch.setenv("SKUFLOW_OCR_REC_BATCH_SIZE", "12")
    monkeypatch.setenv("SKUFLOW_PAGE_SCREENSHOTS", "always")
    monkeypatch.setenv("SKUFLOW_IMAGE_DECORATION_FLOOR_PT", "6")
    config = ParserSettings().parser_config()
    assert config.ocr == OcrTuning(engine="paddleocr", rec_batch_size=12)
    assert (config.screenshots, config.decoration_floor) == ("always", 6.0)
