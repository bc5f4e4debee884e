"""OCR engines behind one interface: RapidOCR (PP-OCRv6 small models on onnxruntime; the wheel bundles
the models, so it works offline) by default, PaddleOCR when selected and installed.

Both detect text on the page image scaled down to ``det_max_side`` pixels (detection cost grows
with the area; text lines stay findable) and recognize the cropped lines at full resolution,
``rec_batch_size`` lines per inference call. RapidOCR can detect with the detector in 8-bit integers
(``det_model="int8"``: PP-OCR's own detector quantized here, ``skuflow ocr-model``), a third of the
float detector's time for the same lines found (docs/decisions.md, OCR). RapidOCR also says where
each word of a line stands (from the recognizer's alignment of characters to the image), which places
a line's words as a text layer would: '2530' read as one line is two prices, 25 and 30, printed apart.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal, Protocol

import numpy as np

from skuflow_parser.backends import ocr_tape
from skuflow_parser.domain.corners import Corners, bounds
from skuflow_parser.domain.skew import skew_degrees, turned

MAX_SIDE_PX = 2600  # the largest page image OCR is given (pages are rendered at most this large)
REC_BATCH_SIZE = 6  # RapidOCR's own default; larger batches were no faster here on 2 cores
DET_MAX_SIDE = 1536
BOX_TRIM = 0.89  # of a detected box's height kept (see ``_trimmed``), after the page is levelled
log = logging.getLogger(__name__)

EngineName = Literal["rapidocr", "paddleocr"]
DetModel = Literal["float", "int8"]
INT8_DETECTOR = Path(__file__).parent / "models" / "det_int8.onnx"  # written by ``skuflow ocr-model``


@dataclass(frozen=True)
class Line:
    corners: Corners
    text: str
    confidence: float
    words: tuple[tuple[str, Corners], ...] = ()  # each word and its corners, where the engine places them


@dataclass(frozen=True)
class OcrTuning:
    engine: EngineName = "rapidocr"
    rec_batch_size: int = REC_BATCH_SIZE
    det_max_side: int = DET_MAX_SIDE
    det_model: DetModel = "float"  # the reader learned from its reading; int8 read it 0.004 worse (decisions.md)


DEFAULT_TUNING = OcrTuning()


class OcrEngine(Protocol):
    name: str

    def read(self, image: np.ndarray, *, upright_lines: bool = True) -> list[Line]:
        """The image's lines; ``upright_lines`` lets the engine turn a line it finds upside down."""
        ...

    def recognize(self, image: np.ndarray, boxes: list[Corners]) -> list[Line]:
        """Each box of ``image`` read as one line, without detection (rows ``letter_spacing`` gathered)."""
        ...


class RapidOcr:
    name = "rapidocr"

    def __init__(self, tuning: OcrTuning) -> None:
        from rapidocr import RapidOCR

        int8 = tuning.det_model == "int8"
        self._ocr = RapidOCR(params={"Global.log_level": "warning", "Global.max_side_len": MAX_SIDE_PX,
                                     "Global.return_word_box": True, "Det.limit_type": "max",
                                     "Det.limit_side_len": tuning.det_max_side,
                                     "Rec.rec_batch_num": tuning.rec_batch_size,
                                     **({"Det.model_path": str(INT8_DETECTOR)} if int8 else {})})
        # what the answers depend on, for the OCR tape (the float detector's calls keep their recorded keys)
        self._tuning = [tuning.det_max_side, tuning.rec_batch_size, *([f"det-int8:{int8_digest()}"] if int8 else [])]

    def read(self, image: np.ndarray, *, upright_lines: bool = True) -> list[Line]:
        return ocr_tape.played("rapidocr.read", image, [upright_lines, *self._tuning],
                               lambda: self._read(image, upright_lines), _recorded, _replayed)

    def recognize(self, image: np.ndarray, boxes: list[Corners]) -> list[Line]:
        shown = np.asarray(boxes, dtype=float).tolist()
        return ocr_tape.played("rapidocr.recognize", image, [shown, *self._tuning],
                               lambda: self._recognize(image, boxes), _recorded, _replayed)

    def _read(self, image: np.ndarray, upright_lines: bool) -> list[Line]:
        found = self._ocr(image, use_cls=upright_lines)
        if found.boxes is None:
            return []
        return _lines(found.boxes, found.txts, found.scores, found.word_results)

    def _recognize(self, image: np.ndarray, boxes: list[Corners]) -> list[Line]:
        crops = [np.ascontiguousarray(image[max(int(y0), 0):int(y1) + 1, max(int(x0), 0):int(x1) + 1])
                 for x0, y0, x1, y1 in map(bounds, boxes)]
        if not crops:
            return []
        found = self._ocr.cal_rec_boxes(crops, np.asarray(boxes, dtype=np.float32), self._ocr.recognize_txt(crops))
        return _lines(boxes, found.txts, found.scores, found.word_results)


def _lines(boxes, texts, scores, word_results) -> list[Line]:
    """The engine's answer as lines, each word placed on the page."""
    words = word_results or [()] * len(boxes)
    return [Line(np.asarray(corners, dtype=float).tolist(), text, float(score),
                 tuple((word, np.asarray(box, dtype=float).tolist()) for word, _, box in placed))
            for corners, text, score, placed in zip(boxes, texts, scores, words, strict=True)]


def _recorded(lines: list[Line]) -> list:
    return [[line.corners, line.text, line.confidence, [list(word) for word in line.words]] for line in lines]


def _replayed(data: list) -> list[Line]:
    return [Line(corners, text, confidence, tuple((word, at) for word, at in words))
            for corners, text, confidence, words in data]


def levelled(lines: list[Line], centre: tuple[float, float]) -> tuple[list[Line], float]:
    """PP-OCR's lines turned straight by the page's skew (``skew``), then trimmed to their text, and
    the skew found (degrees)."""
    skew = skew_degrees([line.corners for line in lines])
    return turned_lines(lines, skew, centre, trim=True), skew


def turned_lines(lines: list[Line], skew: float, centre: tuple[float, float], *, trim: bool = False) -> list[Line]:
    """The lines (and their words) turned back by ``skew`` degrees about ``centre``."""
    def box(corners: Corners) -> Corners:
        level = turned(corners, skew, centre)
        return _trimmed(level) if trim else level

    return [Line(box(line.corners), line.text, line.confidence, tuple((word, box(c)) for word, c in line.words))
            for line in lines]


def _trimmed(corners: Corners) -> Corners:
    """PP-OCRv6's boxes stand ~12 % taller around their text than PP-OCRv4's (measured on the real
    set); trimmed back, so the lines of a dense list or a card no longer overlap the next one."""
    box = np.asarray(corners, dtype=float)
    middle = box[:, 1].mean()
    box[:, 1] = middle + (box[:, 1] - middle) * BOX_TRIM
    return box.tolist()


class PaddleOcr:
    """PaddleOCR 3 (``predict`` returns per-image results with polygons, texts and scores)."""

    name = "paddleocr"

    def __init__(self, tuning: OcrTuning) -> None:
        from paddleocr import PaddleOCR

        self._ocr = PaddleOCR(lang="ch", use_textline_orientation=True, text_det_limit_type="max",
                              text_det_limit_side_len=tuning.det_max_side,
                              text_recognition_batch_size=tuning.rec_batch_size)

    def read(self, image: np.ndarray, *, upright_lines: bool = True) -> list[Line]:
        return [Line(np.asarray(poly).tolist(), text, float(score)) for result in self._ocr.predict(image)
                for poly, text, score in zip(result["rec_polys"], result["rec_texts"], result["rec_scores"],
                                             strict=True)]

    def recognize(self, image: np.ndarray, boxes: list[Corners]) -> list[Line]:
        """Not offered by PaddleOCR's pipeline here: no lines, so the page keeps its detected ones."""
        return []


@cache
def int8_digest() -> str:
    """The int8 detector's file, by its content: a detector quantized otherwise answers otherwise."""
    return hashlib.sha256(INT8_DETECTOR.read_bytes()).hexdigest()[:12]


@cache
def engine(tuning: OcrTuning) -> OcrEngine:
    """One engine per process and tuning (loading the models takes a few hundred ms and ~100 MB).
    PaddleOCR is optional: selected but not installed, it is logged as an error and RapidOCR reads."""
    if tuning.engine == "paddleocr":
        if importlib.util.find_spec("paddleocr") is not None:
            return PaddleOcr(tuning)
        log.error("OCR engine paddleocr is selected but the paddleocr package is not installed; using rapidocr")
    return RapidOcr(tuning)
