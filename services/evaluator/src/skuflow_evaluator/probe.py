"""Reading a PDF for the evaluator with PyMuPDF, before anything is parsed.

Cheap on purpose: text and picture placements only, nothing decoded, no OCR. Every page gets a
glance (blank or not, text layer or not); sampled pages are measured more closely. Whether a page
must be OCR'd is decided by the parser's own rule, so the evaluator judges the page the parser
will read. It runs in the parser's worker pool: a hostile file costs a worker, not the evaluator.
"""

from __future__ import annotations

import math

import pymupdf

from skuflow_contracts.evaluation import EvaluationReport
from skuflow_contracts.profile import ThresholdProfile
from skuflow_evaluator.domain.evaluation import evaluate
from skuflow_evaluator.domain.features import PageFeatures, PageGlance
from skuflow_parser.domain.text_layer import Drawn, TextLayerRule, ocr_reason

TEXT_ONLY = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
PRODUCT_SHARE = (0.01, 0.5)  # pictures smaller are ornaments, larger are backgrounds or scans
SCAN_SHARE = 0.5
ALIGN_TOLERANCE = 2.0  # points: left edges this close start the same column


def evaluate_file(pdf_path: str, profile: ThresholdProfile) -> EvaluationReport | str:
    """The document's evaluation, or a string saying why it could not be read (plain data either
    way: this runs in a worker process)."""
    try:
        with pymupdf.open(pdf_path) as doc:
            return evaluate_document(doc, profile)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"[:300]


def evaluate_document(doc: pymupdf.Document, profile: ThresholdProfile) -> EvaluationReport:
    """Every page's picture placements are listed once, for its glance and, if sampled, its features."""
    pictures = [_pictures(page) for page in doc]
    glances = [glance(doc[index], index + 1, pictures[index]) for index in range(doc.page_count)]
    return evaluate(glances, lambda pages: [page_features(doc[p - 1], p, pictures[p - 1]) for p in pages],
                    profile)


def screenshots(pdf_path: str, pages: list[int]) -> list[bytes]:
    with pymupdf.open(pdf_path) as doc:
        return render(doc, pages)


def render(doc: pymupdf.Document, pages: list[int], dpi: int = 72) -> list[bytes]:
    """JPEG renderings of the given pages for a model to look at."""
    return [doc[p - 1].get_pixmap(dpi=dpi).tobytes("jpeg", jpg_quality=75) for p in pages]


Pictures = list[tuple[float, dict]]  # each picture's share of the page, and its placement


def _pictures(page: pymupdf.Page) -> Pictures:
    area = max(abs(page.rect), 1.0)
    return [(abs(pymupdf.Rect(info["bbox"]) & page.rect) / area, info) for info in page.get_image_info()]


def glance(page: pymupdf.Page, number: int, pictures: Pictures | None = None) -> PageGlance:
    text = page.get_text("text", flags=TEXT_ONLY)
    return PageGlance(page=number, text_chars=sum(1 for c in text if not c.isspace()),
                      picture_share=_covered(_pictures(page) if pictures is None else pictures))


def _covered(pictures: Pictures) -> float:
    return min(sum(share for share, _ in pictures), 1.0)


def page_features(page: pymupdf.Page, number: int, pictures: Pictures | None = None) -> PageFeatures:
    area = max(abs(page.rect), 1.0)
    lines, across, lefts, covered = [], 0, [], 0.0
    for block in page.get_text("dict", flags=TEXT_ONLY)["blocks"]:
        for line in block.get("lines", ()):
            chars = "".join(span["text"] for span in line["spans"])
            if not chars.strip():
                continue
            lines.append(chars)
            if abs(line["dir"][0]) < 0.5:
                across += len(chars)
            box = pymupdf.Rect(line["bbox"]) * page.rotation_matrix
            lefts.append(round(box.x0 / ALIGN_TOLERANCE))
            covered += abs(box)
    text = "\n".join(lines)
    chars = sum(1 for c in text if not c.isspace())
    pictures = _pictures(page) if pictures is None else pictures
    picture_share = _covered(pictures)
    drawn = Drawn.of(page.get_cdrawings()) if chars < TextLayerRule().min_chars else Drawn()
    share, scan = max(pictures, default=(0.0, None), key=lambda pair: pair[0])
    return PageFeatures(
        page=number, text_chars=chars,
        ocr_reason=ocr_reason(text, min(covered / area, 1.0), picture_share, drawn=drawn),
        stored_rotated=page.rotation % 360 != 0 or (chars > 0 and across > len(text) / 2),
        picture_share=picture_share, column_alignment=_alignment(lefts),
        scan_dpi=_dpi(scan) if scan is not None and share >= SCAN_SHARE else None,
        picture_edges=tuple(min(info["width"], info["height"]) for share, info in pictures
                            if PRODUCT_SHARE[0] <= share < PRODUCT_SHARE[1]))


def _alignment(lefts: list[int]) -> float:
    """Share of text lines that start where at least two other lines start: tables and grids line
    their cells up in columns; running text and scattered labels do not."""
    counts: dict[int, int] = {}
    for left in lefts:
        for near in (left - 1, left, left + 1):
            counts[near] = counts.get(near, 0) + 1
    return sum(1 for left in lefts if counts[left] >= 3) / len(lefts) if lefts else 0.0


def _dpi(info: dict) -> float:
    """Pixels per inch of a picture as placed on the page (its short side decides)."""
    box = pymupdf.Rect(info["bbox"])
    return math.floor(min(info["width"], info["height"]) / max(min(box.width, box.height) / 72.0, 1e-6))
