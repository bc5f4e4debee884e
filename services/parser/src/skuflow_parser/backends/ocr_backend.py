"""OCR backend: a page rendered to an image and read by the selected engine (``ocr_engines``).

The engine loads once per process and is reused. Pages are rendered at ``dpi`` but never beyond
``max_side`` pixels, which bounds time and memory on huge pages; boxes come back in pixels and are
converted to PDF points of the displayed page.
"""

from __future__ import annotations

import statistics
import threading
import unicodedata
from dataclasses import dataclass, field

import numpy as np
import pymupdf

from skuflow_contracts.ir import TextBlock, TextLine, TextSpan
from skuflow_parser.backends.flatten import flattened, sheet
from skuflow_parser.backends.ocr_engines import (
    DEFAULT_TUNING,
    MAX_SIDE_PX,
    Line,
    OcrTuning,
    engine,
    levelled,
    turned_lines,
)
from skuflow_parser.backends.pymupdf_backend import render
from skuflow_parser.backends.tesseract import read_other_script, with_figures_of
from skuflow_parser.domain.corners import Bounds, Corners, bounds, corners_of
from skuflow_parser.domain.letter_spacing import is_loose, pieces, reads_across, rows, span
from skuflow_parser.domain.ocr_text import Fragment, overlapping, placed, repaired
from skuflow_parser.domain.orientation import (
    SIDEWAYS_SHARE,
    better_turn,
    lying_weight,
    may_be_vertical,
    reads_down,
    standing_share,
)
from skuflow_parser.domain.scan_pictures import pictures
from skuflow_parser.domain.scripts import in_one_script

DEFAULT_DPI = 200
LOW_RES_DPI = 150  # a scan below this is read at this resolution (upscaled), never more than ``dpi``
UPSCALE = 1.5
A4_LONG_SIDE = 842.0  # points
READ_LONG_PX = round(A4_LONG_SIDE * DEFAULT_DPI / 72)  # the long side of A4 read at 200 dpi (2339 pixels)
SCAN_SHARE = 0.5  # a picture covering this share of the page is its scan
CHINESE_SHARE = 0.2  # of a reading's letters in CJK: the page is Chinese (or Japanese), read by PP-OCR's own models
_lock = threading.Lock()


WARM_UP_TEXT = "SKU 2024"


def warm_up(tuning: OcrTuning = DEFAULT_TUNING) -> str:
    """Load the models now (worker start-up) rather than on the first scanned page. RapidOCR loads
    each model on its first use, so a line of text is read (detection, line turning, recognition);
    what was read is returned: not ``WARM_UP_TEXT`` means the models do not read."""
    card = pymupdf.open()
    page = card.new_page(width=160, height=40)
    page.insert_text((10, 26), WARM_UP_TEXT, fontsize=16)
    return " ".join(line.text for line in _read(_pixels(page.get_pixmap(dpi=DEFAULT_DPI)), tuning))


def _pixels(pix: pymupdf.Pixmap) -> np.ndarray:
    """An RGB pixmap's pixels as the engines take them (height × width × 3, no copy)."""
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3)


def _read(image: np.ndarray, tuning: OcrTuning, *, upright_lines: bool = True) -> list[Line]:
    """The engine's lines for ``image``, one reading at a time: onnxruntime sessions are not re-entrant
    from several threads of one process."""
    with _lock:
        return engine(tuning).read(image, upright_lines=upright_lines)


@dataclass(frozen=True)
class OcrPage:
    blocks: list[TextBlock]
    confidence: float | None
    turn: int = 0  # degrees clockwise the page was turned to read upright (its blocks are in that frame)
    pictures: list[tuple[float, float, float, float]] = field(default_factory=list)  # on a scan, in points


def scan_resolution(page: pymupdf.Page) -> float | None:
    """The resolution (pixels per inch) of the picture that fills the page, if one does (a scan)."""
    area = page.rect.width * page.rect.height
    best: float | None = None
    for info in page.get_image_info():
        x0, y0, x1, y1 = info["bbox"]
        if (x1 - x0) * (y1 - y0) >= SCAN_SHARE * area and x1 > x0:
            resolution = info["width"] / ((x1 - x0) / 72)
            best = resolution if best is None else max(best, resolution)
    return best


def ocr_resolution(dpi: int, scanned_at: float | None, long_side: float = A4_LONG_SIDE) -> int:
    """The resolution to read a page at: ``dpi``, except for
    - a low-resolution scan, which is upscaled only to ``LOW_RES_DPI`` (or 1.5× its own): measured on
      real pages scanned at 80–100 dpi, reading them at 150 dpi found 10–25 % more of their codes than
      at 200 dpi or at their own resolution;
    - a page smaller than A4 (``long_side`` in points) filled by a picture with more pixels than
      ``dpi`` gives it (a photo placed on a small page), which is read with its own pixels, up to as
      many as A4 has at ``dpi`` (``READ_LONG_PX``): at ``dpi`` a 600 dpi photo on a 300-point page
      would be read from a sixth of its pixels. Measured on the six such pages of the real set: SKU
      F1 0.887 at ``dpi``, 0.928 with their own pixels."""
    if scanned_at is None:
        return dpi
    if scanned_at < dpi:
        return min(dpi, max(LOW_RES_DPI, round(UPSCALE * scanned_at)))
    return max(dpi, round(min(scanned_at, READ_LONG_PX * 72 / long_side)))


def page_image(page: pymupdf.Page, scanned_at: float | None, dpi: int = DEFAULT_DPI,
               max_side: int = MAX_SIDE_PX) -> tuple[np.ndarray, float]:
    """The page's pixels as OCR reads them (a scan of ``scanned_at`` ppi at ``ocr_resolution``), and their zoom."""
    pix, zoom = render(page, ocr_resolution(dpi, scanned_at, max(page.rect.width, page.rect.height)), max_side)
    return _pixels(pix), zoom


def _mostly_chinese(found: list) -> bool:
    """Most letters read are full-width: a page in PP-OCR's own scripts, whose columns may stand."""
    letters = [ch for line in found for ch in line.text if ch.isalpha()]
    return bool(letters) and sum(1 for ch in letters if unicodedata.east_asian_width(ch) in "WF") \
        >= CHINESE_SHARE * len(letters)


def _normal(text: str) -> str:
    """PP-OCR answers full-width colons, dashes and digits at random: NFKC makes them one."""
    return unicodedata.normalize("NFKC", text).strip()


def _box(corners: Corners, zoom: float) -> Bounds:
    return tuple(round(v / zoom, 2) for v in bounds(corners))  # type: ignore[return-value]


def ocr_page(page: pymupdf.Page, *, dpi: int = DEFAULT_DPI, max_side: int = MAX_SIDE_PX,
             tuning: OcrTuning = DEFAULT_TUNING, flatten: bool = False) -> OcrPage:
    """The page's words read by OCR, turned to read upright (``orientation``), letter-spaced Chinese read
    by rows (``letter_spacing``), levelled when the scan is skewed (``skew``) and, with ``flatten``,
    from the flattened sheet of a photo (``flatten``: off by default, see docs/decisions.md); on a
    scan, also where the pictures printed on it are (``scan_pictures``)."""
    scanned_at = scan_resolution(page)
    image, zoom = page_image(page, scanned_at, dpi, max_side)
    if flatten and scanned_at is not None and (corners := sheet(image)) is not None:
        image = flattened(image, corners)  # a photographed sheet: its words are placed as on the flat sheet
        zoom = max(image.shape[1] / page.rect.width, image.shape[0] / page.rect.height)
    found = _read(image, tuning)
    turn, shapes = 0, [(line.corners, line.text) for line in found]
    if standing_share(shapes) >= SIDEWAYS_SHARE:
        turn, image, found = _upright(image, found, tuning)
    elif _mostly_chinese(found) and may_be_vertical(shapes):
        turn, image, found = _down_columns(image, found, tuning)
    else:
        found = _by_rows(image, found, tuning)
    shown = [] if scanned_at is None else [
        tuple(round(v / zoom, 2) for v in box) for box in pictures(image, [_box(line.corners, 1.0) for line in found])]
    centre = (image.shape[1] / 2, image.shape[0] / 2)
    first = found  # PP-OCR's lines where the image has them, as Tesseract places its words
    found, skew = levelled(found, centre)
    if not _mostly_chinese(found) and (other := read_other_script(image, first)) is not None:
        # a script PP-OCR's models cannot read, its figures (and codes) as PP-OCR read them
        found = turned_lines(with_figures_of(other.lines, first, other.from_ppocr), skew, centre)
    blocks: list[TextBlock] = []
    confidences = []
    laid = [placed(_normal(line.text), [(_normal(word), _box(corners, 1.0)) for word, corners in line.words])
            for line in found]
    texts = repaired(in_one_script([words[0] if words else _normal(line.text)
                                    for line, words in zip(found, laid, strict=True)]))
    fragments = []
    for line, words, text in zip(found, laid, texts, strict=True):
        if not text:
            continue
        kept = words is not None and len(words[0]) == len(text)  # else the boxes no longer match: spread
        chars = tuple(tuple(round(v / zoom, 2) for v in char) for char in words[1]) if kept else ()
        fragments.append(Fragment(_box(line.corners, zoom), text, line.confidence, chars))
    for fragment in overlapping(fragments):
        box, text = fragment.box, fragment.text
        spans = [TextSpan(bbox=box, text=text, char_boxes=list(fragment.chars))] if fragment.chars else []
        blocks.append(TextBlock(block_id=len(blocks), bbox=box, text=text,
                                lines=[TextLine(bbox=box, text=text, spans=spans)],
                                font_size=round(box[3] - box[1], 1), confidence=round(fragment.confidence, 4)))
        confidences.append(fragment.confidence)
    return OcrPage(blocks, round(statistics.fmean(confidences), 4) if confidences else None, turn, shown)


QUARTER_TURNS = {90: 3, 270: 1}  # degrees clockwise → numpy's counter-clockwise quarter turns


def _turned(image: np.ndarray, turn: int) -> np.ndarray:
    return np.ascontiguousarray(np.rot90(image, QUARTER_TURNS[turn]))


def _weighed(lines: list[Line]) -> list[tuple[Corners, str, float]]:
    """The lines as ``orientation`` weighs a reading: each line's box, text and confidence."""
    return [(line.corners, line.text, line.confidence) for line in lines]


def _upright(image: np.ndarray, found: list[Line], tuning: OcrTuning) -> tuple[int, np.ndarray, list[Line]]:
    """A page whose lines stand on end, read a quarter turn either way with no line turned by the
    engine (``orientation``): the turn, picture and lines that read it upright (0 and the page as it
    stands when neither turn reads better). Each way is read by rows where it is letter-spaced: a menu
    photographed on its side, its names spread, reads them as columns either way up until its rows are
    read, and only its rows tell which way is up."""
    readings = {0: (image, _by_rows(image, found, tuning))}
    for turn in QUARTER_TURNS:
        turned = _turned(image, turn)
        readings[turn] = (turned, _by_rows(turned, _read(turned, tuning, upright_lines=False), tuning))
    turn = better_turn(lying_weight(_weighed(readings[0][1])),
                       {t: lying_weight(_weighed(lines)) for t, (_, lines) in readings.items() if t})
    return (turn, *readings[turn])


def across_rows(image: np.ndarray, found: list[Line], tuning: OcrTuning) -> list[Line]:
    """A page of letter-spaced Chinese (``letter_spacing``): its rows holding loose characters read
    again, each as one line, in place of the lines they cover, where that reads the page better."""
    parts = pieces([(line.corners, line.text, line.words) for line in found])
    segments = rows(parts)
    if not segments:
        return found
    with _lock:
        read = engine(tuning).recognize(image, [corners_of(span(segment)) for segment in segments])
    if not read:  # an engine that cannot read a box alone (PaddleOCR here): the page as detected
        return found
    covered = {id(piece) for segment in segments for piece in segment}
    touched = {piece.line for piece in parts if id(piece) in covered}
    kept = [line for n, line in enumerate(found) if n not in touched]
    left = [Line(corners_of(piece.box), piece.text, found[piece.line].confidence) for piece in parts
            if piece.line in touched and id(piece) not in covered]
    across = kept + left + [line for line in read if line.text.strip()]
    return across if reads_across(_weighed(found), _weighed(across)) else found


DOWN = 270  # degrees clockwise: the page turned a quarter counter-clockwise, so columns read top to bottom lie


def _by_rows(image: np.ndarray, found: list[Line], tuning: OcrTuning) -> list[Line]:
    """The reading of a page of letter-spaced Chinese (``letter_spacing``) by rows, else ``found``."""
    if _mostly_chinese(found) and is_loose([(line.corners, line.text) for line in found]):
        return across_rows(image, found, tuning)
    return found


def _down_columns(image: np.ndarray, found: list[Line], tuning: OcrTuning) -> tuple[int, np.ndarray, list[Line]]:
    """A page of Chinese that may be set in columns, read again turned so each column lies as a line
    (``orientation``): that reading where it reads the page better, else the page as it stands; either
    read by rows where it is letter-spaced. The two are weighed as detected: read by rows, a board set
    in columns would read across them, as if it were text set in rows."""
    turned = _turned(image, DOWN)
    lines = _read(turned, tuning, upright_lines=False)
    if reads_down(_weighed(found), _weighed(lines)):
        return DOWN, turned, _by_rows(turned, lines, tuning)
    return 0, image, _by_rows(image, found, tuning)
