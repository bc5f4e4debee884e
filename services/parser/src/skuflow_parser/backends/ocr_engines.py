"""OCR engines behind one interface: RapidOCR (PP-OCR models on onnxruntime; the wheel bundles the
models, so it works offline) by default, PaddleOCR when selected and installed.

Both detect text on the page image scaled down to ``det_max_side`` pixels (detection cost grows
with the area; text lines stay findable) and recognize the cropped lines at full resolution,
``rec_batch_size`` lines per inference call.
"""

from __future__ import annotations

import importlib.util
import logging
from dataclasses import dataclass
from functools import cache
from typing import Literal, Protocol

import numpy as np

MAX_SIDE_PX = 2600  # the largest page image OCR is given (pages are rendered at most this large)
REC_BATCH_SIZE = 6  # RapidOCR's own default; larger batches were no faster here on 2 cores
DET_MAX_SIDE = 1536
log = logging.getLogger(__name__)

EngineName = Literal["rapidocr", "paddleocr"]
Line = tuple[list[list[float]], str, float]  # the line's corners in pixels, its text, its confidence


@dataclass(frozen=True)
class OcrTuning:
    engine: EngineName = "rapidocr"
    rec_batch_size: int = REC_BATCH_SIZE
    det_max_side: int = DET_MAX_SIDE


DEFAULT_TUNING = OcrTuning()


class OcrEngine(Protocol):
    name: str

    def read(self, image: np.ndarray) -> list[Line]: ...


class RapidOcr:
    name = "rapidocr"

    def __init__(self, tuning: OcrTuning) -> None:
        from rapidocr_onnxruntime import RapidOCR

        self._ocr = RapidOCR(max_side_len=MAX_SIDE_PX, det_limit_type="max", det_limit_side_len=tuning.det_max_side,
                             rec_batch_num=tuning.rec_batch_size)

    def read(self, image: np.ndarray) -> list[Line]:
        found, _ = self._ocr(image)
        return [(corners, text, float(score)) for corners, text, score in found or []]


class PaddleOcr:
    """PaddleOCR 3 (``predict`` returns per-image results with polygons, texts and scores)."""

    name = "paddleocr"

    def __init__(self, tuning: OcrTuning) -> None:
        from paddleocr import PaddleOCR

        self._ocr = PaddleOCR(lang="ch", use_textline_orientation=True, text_det_limit_type="max",
                              text_det_limit_side_len=tuning.det_max_side,
                              text_recognition_batch_size=tuning.rec_batch_size)

    def read(self, image: np.ndarray) -> list[Line]:
        return [(np.asarray(poly).tolist(), text, float(score)) for result in self._ocr.predict(image)
                for poly, text, score in zip(result["rec_polys"], result["rec_texts"], result["rec_scores"],
                                             strict=True)]


@cache
def engine(tuning: OcrTuning) -> OcrEngine:
    """One engine per process and tuning (loading the models takes a few hundred ms and ~100 MB).
    PaddleOCR is optional: selected but not installed, it is logged as an error and RapidOCR reads."""
    if tuning.engine == "paddleocr":
        if importlib.util.find_spec("paddleocr") is not None:
            return PaddleOcr(tuning)
        log.error("OCR engine paddleocr is selected but the paddleocr package is not installed; using rapidocr")
    return RapidOcr(tuning)
