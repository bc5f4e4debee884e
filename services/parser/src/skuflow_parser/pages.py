"""One page through the backend chain: PyMuPDF's text layer, then OCR when that layer is unusable.

A failing backend is logged and counted and the next one tried; a page no backend can read comes
out with ``status="failed"`` and the reason, so the job goes on without it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import pymupdf

from skuflow_contracts.ir import ParsedPage, TextBlock
from skuflow_parser.backends import ocr_backend
from skuflow_parser.backends.ocr_engines import OcrTuning
from skuflow_parser.backends.pymupdf_backend import ImageCache, text_blocks
from skuflow_parser.backends.pymupdf_images import PlacedImage, cut_from_scan, page_images
from skuflow_parser.backends.screenshot import DEFAULT_DPI as SCREENSHOT_DPI
from skuflow_parser.backends.screenshot import screenshot
from skuflow_parser.domain.document import text_coverage
from skuflow_parser.domain.drawn_rules import column_rules, horizontal_rules
from skuflow_parser.domain.features import page_features
from skuflow_parser.domain.images import DECORATION_MAX_SIDE, picture_share
from skuflow_parser.domain.layout import reading_order, with_block_types
from skuflow_parser.domain.screenshots import ScreenshotPolicy, wants_screenshot
from skuflow_parser.domain.text_layer import Drawn, TextLayerRule, ocr_reason
from skuflow_parser.metrics import OCR_FALLBACKS, PARSER_FAILURES, PARSER_USED

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ParserConfig:
    text_layer: TextLayerRule = field(default_factory=TextLayerRule)
    ocr_enabled: bool = True
    ocr_dpi: int = ocr_backend.DEFAULT_DPI
    ocr: OcrTuning = field(default_factory=OcrTuning)
    flatten_photos: bool = False  # warp a photographed sheet flat before OCR (measured: no better yet)
    decoration_floor: float = DECORATION_MAX_SIDE
    screenshots: ScreenshotPolicy = "needed"
    screenshot_dpi: int = SCREENSHOT_DPI


@dataclass
class PageParse:
    """A parsed page plus the bytes of its images and screenshot, which the caller stores by claim-check."""

    page: ParsedPage
    images: list[PlacedImage] = field(default_factory=list)
    screenshot: bytes | None = None


def failed_parse(number: int, reason: str, *, width: float = 1, height: float = 1, rotation: int = 0) -> PageParse:
    """A page no backend could read: it still travels on, with its reason, so the job completes."""
    return PageParse(ParsedPage(page=number, width=width, height=height, rotation=rotation,
                                parser_backend="pymupdf", status="failed", failure_reason=reason))


def _ocr(page: pymupdf.Page, config: ParserConfig) -> ocr_backend.OcrPage | None:
    try:
        return ocr_backend.ocr_page(page, dpi=config.ocr_dpi, tuning=config.ocr, flatten=config.flatten_photos)
    except Exception:  # counted and logged; the text layer (if any) is kept
        PARSER_FAILURES.labels("ocr").inc()
        log.exception("ocr backend failed", extra={"fields": {"page": page.number + 1}})
        return None


def _screenshot(page: pymupdf.Page, config: ParserConfig) -> bytes | None:
    try:
        return screenshot(page, config.screenshot_dpi)
    except Exception:  # counted and logged; the page's IR does not depend on its picture
        PARSER_FAILURES.labels("screenshot").inc()
        log.exception("page screenshot failed", extra={"fields": {"page": page.number + 1}})
        return None


def _drawings(page: pymupdf.Page) -> list[dict]:
    """The page's vector paths, read once: their number tells outlined text, their rules table rows."""
    try:
        return page.get_cdrawings()
    except Exception:  # counted and logged; tables are still read from their words
        PARSER_FAILURES.labels("drawings").inc()
        log.exception("reading drawings failed", extra={"fields": {"page": page.number + 1}})
        return []


def parse_page(doc: pymupdf.Document, index: int, file_hash: str, cache: ImageCache,
               config: ParserConfig | None = None) -> PageParse:
    config = config or ParserConfig()
    page = doc[index]
    try:
        blocks: list[TextBlock] = text_blocks(page)
        found = page_images(doc, page, file_hash, cache, config.decoration_floor)
    except Exception as exc:  # a damaged page must not stop the document
        PARSER_FAILURES.labels("pymupdf").inc()
        log.exception("pymupdf backend failed", extra={"fields": {"page": index + 1}})
        return failed_parse(index + 1, f"unreadable_page: {type(exc).__name__}: {exc}"[:500],
                            width=page.rect.width, height=page.rect.height, rotation=page.rotation)
    images = found.placed
    width, height = page.rect.width, page.rect.height
    picture_boxes = [placed.region.bbox for placed in images]
    coverage = text_coverage([b.bbox for b in blocks], width, height)
    backend, confidence = "pymupdf", None
    text = "\n".join(b.text for b in blocks)
    sparse = len(text.strip()) < config.text_layer.min_chars
    drawings = _drawings(page) if sparse or not page.rotation else []
    reason = ocr_reason(text, coverage, picture_share(picture_boxes, width, height), config.text_layer,
                        Drawn.of(drawings) if sparse else Drawn(), found.placements)
    if reason and config.ocr_enabled:
        OCR_FALLBACKS.labels(reason).inc()
        ocr = _ocr(page, config)
        if ocr is not None:
            blocks, backend, confidence = ocr.blocks, "ocr", ocr.confidence
            if ocr.turn:  # a sideways scan: from here on the page is shown as it reads
                page.set_rotation((page.rotation + ocr.turn) % 360)
                found = page_images(doc, page, file_hash, cache, config.decoration_floor)
            if ocr.turn or ocr.pictures:
                found = cut_from_scan(page, found, ocr.pictures, file_hash, config.decoration_floor)
                images, width, height = found.placed, page.rect.width, page.rect.height
                picture_boxes = [placed.region.bbox for placed in images]
            coverage = text_coverage([b.bbox for b in blocks], width, height)
    PARSER_USED.labels(backend).inc()
    blocks = with_block_types(blocks, picture_boxes)
    ruled = backend == "pymupdf" and not page.rotation
    rules = horizontal_rules(drawings) if ruled else []
    features = page_features(blocks, picture_boxes, images, width, height, backend)
    parsed = ParsedPage(
        page=index + 1, width=width, height=height, rotation=page.rotation, parser_backend=backend,
        text_blocks=blocks, images=[placed.region for placed in images], decorations=found.decorations,
        rules=rules, column_rules=column_rules(drawings) if ruled else [],
        reading_order=reading_order(blocks, width),
        text_coverage=coverage, ocr_confidence=confidence,
        features=features,
    )
    wanted = wants_screenshot(config.screenshots, parsed, text_layer_rejected=reason is not None)
    return PageParse(parsed, images, _screenshot(page, config) if wanted else None)
