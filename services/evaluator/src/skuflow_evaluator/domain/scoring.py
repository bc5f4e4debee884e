"""Scores of a page and of a document, from the features the probe measured (seed-001a §7.7).

A page is read right when its text is read right and its structure is understood, so a page's
score is its text readability times the (weighted) quality of the rest. Before anything is parsed
an OCR page can only be scored by what OCR may make of it: the resolution it will be read at, under
a ceiling, because OCR is never as sure as a healthy text layer.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass

from skuflow_evaluator.domain.features import PageFeatures

OCR_CEILING = 0.7  # the best an OCR'd page can score for readability
GOOD_DPI, USELESS_DPI = 300.0, 72.0
GOOD_PICTURE_EDGE = 200  # pixels: product pictures this large are fit for a shop
SIDEWAYS_READABILITY = 0.8  # a page stored sideways is read in a turned frame
PAGE_DIMENSIONS = ("text_readability", "layout_quality", "image_quality")
CONSISTENCY = "structure_consistency"


def resolution(dpi: float) -> float:
    return min(max((dpi - USELESS_DPI) / (GOOD_DPI - USELESS_DPI), 0.0), 1.0)


def page_kind(page: PageFeatures) -> str:
    if page.ocr_reason:
        return "scan" if page.scan_dpi else "ocr"
    return "sideways" if page.stored_rotated else "text"


def page_dimensions(page: PageFeatures, ocr_dpi: int) -> dict[str, float]:
    scan = resolution(page.scan_dpi) if page.scan_dpi else None
    if page.ocr_reason:
        readability = OCR_CEILING * (scan if scan is not None else resolution(ocr_dpi))
    else:
        readability = SIDEWAYS_READABILITY if page.stored_rotated else 1.0
    layout = 0.5 * scan if scan is not None and not page.text_chars else 0.5 + 0.5 * page.column_alignment
    if page.picture_edges:
        image = statistics.fmean(min(edge / GOOD_PICTURE_EDGE, 1.0) for edge in page.picture_edges)
    else:
        image = scan if scan is not None else 1.0
    return {"text_readability": readability, "layout_quality": layout, "image_quality": image}


def page_score(dimensions: dict[str, float], weights: dict[str, float]) -> float:
    rest = [d for d in PAGE_DIMENSIONS if d != "text_readability"]
    total = sum(weights.get(d, 0.0) for d in rest) or 1.0
    structure = sum(weights.get(d, 0.0) * dimensions[d] for d in rest) / total
    return round(dimensions["text_readability"] * structure, 4)


def c_doc(dimension_scores: dict[str, float], weights: dict[str, float], penalty: float) -> float:
    """C_doc = Σ weight × dimension − prescan penalty, clamped to [0, 1] (seed-001a §7.7)."""
    raw = sum(weight * dimension_scores.get(dim, 0.0) for dim, weight in weights.items()) - penalty
    return round(min(max(raw, 0.0), 1.0), 4)


@dataclass(frozen=True)
class DocumentScore:
    dimension_scores: dict[str, float]
    page_scores: dict[int, float]
    variance: float


def score_pages(pages: list[PageFeatures], weights: dict[str, float], ocr_dpi: int) -> dict[int, float]:
    return {p.page: page_score(page_dimensions(p, ocr_dpi), weights) for p in pages}


def score_document(pages: list[PageFeatures], weights: dict[str, float], ocr_dpi: int) -> DocumentScore:
    """Each page dimension averaged over the sampled pages; structure consistency is the share of
    pages of the document's most common kind (text, sideways, scan, other OCR)."""
    if not pages:
        return DocumentScore({d: 0.0 for d in (*PAGE_DIMENSIONS, CONSISTENCY)}, {}, 0.0)
    dims = [page_dimensions(p, ocr_dpi) for p in pages]
    scores = {d: round(statistics.fmean(x[d] for x in dims), 4) for d in PAGE_DIMENSIONS}
    scores[CONSISTENCY] = round(Counter(page_kind(p) for p in pages).most_common(1)[0][1] / len(pages), 4)
    page_scores = {p.page: page_score(x, weights) for p, x in zip(pages, dims, strict=True)}
    variance = statistics.variance(page_scores.values()) if len(page_scores) > 1 else 0.0
    return DocumentScore(scores, page_scores, round(variance, 4))
