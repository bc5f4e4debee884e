"""OCR backend: PP-OCR models through RapidOCR + onnxruntime (the wheel bundles the models: offline).

The engine loads once per process (it takes a few hundred ms and ~100 MB) and is reused. Pages
are rendered at ``dpi`` but never beyond ``max_side`` pixels, which bounds time and memory on
huge pages; boxes come back in pixels and are converted to PDF points of the displayed page.
"""

from __future__ import annotations

import statistics
import threading
import unicodedata
from dataclasses import dataclass
from functools import cache

import numpy as np
import pymupdf

from skuflow_contracts.ir import TextBlock, TextLine

DEFAULT_DPI = 200
MAX_SIDE_PX = 2600
_lock = threading.Lock()


@cache
def _engine():  # RapidOCR has no public type
    from rapidocr_onnxruntime import RapidOCR

    return RapidOCR()


def warm_up() -> None:
    """Load the models now (worker start-up) rather than on the first scanned page."""
    _engine()


@dataclass(frozen=True)
class OcrPage:
    blocks: list[TextBlock]
    confidence: float | None


def _scale(page: pymupdf.Page, dpi: int, max_side: int) -> float:
    zoom = dpi / 72
    longest = max(page.rect.width, page.rect.height) * zoom
    return zoom * min(1.0, max_side / longest)


def ocr_page(page: pymupdf.Page, *, dpi: int = DEFAULT_DPI, max_side: int = MAX_SIDE_PX) -> OcrPage:
    zoom = _scale(page, dpi, max_side)
    pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csRGB, alpha=False)
    image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3)
    with _lock:  # onnxruntime sessions are not re-entrant from several threads of one process
        found, _ = _engine()(image)
    blocks: list[TextBlock] = []
    confidences = []
    for corners, text, score in found or []:
        text = unicodedata.normalize("NFKC", text).strip()
        if not text:
            continue
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        box = (round(min(xs) / zoom, 2), round(min(ys) / zoom, 2), round(max(xs) / zoom, 2), round(max(ys) / zoom, 2))
        blocks.append(TextBlock(block_id=len(blocks), bbox=box, text=text, lines=[TextLine(bbox=box, text=text)],
                                font_size=round(box[3] - box[1], 1), confidence=round(float(score), 4)))
        confidences.append(float(score))
    return OcrPage(blocks, round(statistics.fmean(confidences), 4) if confidences else None)
