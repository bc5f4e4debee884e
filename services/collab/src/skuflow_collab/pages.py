"""Page pictures for the workbench, rendered from the uploaded PDF the first time they are asked for
(most pages are never looked at, so the parser does not render them all) and kept in storage."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import TypeVar

import pymupdf

from skuflow_contracts.ir import BBox, ParsedPage, TextSpan
from skuflow_contracts.results import PageResult
from skuflow_platform.storage import SCHEME, LocalStorage, StorageError

T = TypeVar("T")
BLOCK_TEXT = 80  # characters of a text block the workbench shows on hover

DPI = 110
SHARP_DPI = 220  # what a zoomed-in page is drawn from: small type stays legible at 2-4x
THUMBNAIL_DPI = 36
MAX_WORDS = 6000  # words sent with a task: a dense scanned page holds about 3000


def source_key(job_id: str) -> str:
    return f"jobs/{job_id}/source.pdf"


def _with_page(storage: LocalStorage, job_id: str, page: int, read: Callable[[pymupdf.Page, int], T]) -> T | None:
    """``read(page, page_count)`` on the uploaded PDF's page, or None without the file or the page."""
    path = storage.path(SCHEME + source_key(job_id))
    if not path.exists():
        return None
    with pymupdf.open(path) as doc:
        return read(doc[page - 1], doc.page_count) if 1 <= page <= doc.page_count else None


def page_size(storage: LocalStorage, job_id: str, page: int) -> tuple[float, float, int] | None:
    """(width, height) in points of ``page`` and the document's page count."""
    return _with_page(storage, job_id, page, lambda p, count: (p.rect.width, p.rect.height, count))


def page_png(storage: LocalStorage, job_id: str, page: int, dpi: int = DPI) -> bytes | None:
    key = f"jobs/{job_id}/pages/{page:04d}/review-{dpi}.png"
    cached = storage.path(SCHEME + key)
    if cached.exists():
        return cached.read_bytes()
    data = _with_page(storage, job_id, page, lambda p, _: p.get_pixmap(dpi=dpi).tobytes("png"))
    if data is not None:
        storage.put(key, data)
    return data


def cut_pictures(storage: LocalStorage, job_id: str, result: PageResult, drawn: set[str], dpi: int) -> PageResult:
    """Store the pictures a person drew (``drawn`` image ids), cut from the uploaded page, so that
    output exports them with the rest; without the upload they stay boxes without a file."""
    images = []
    for image in result.images:
        if image.image_id in drawn:
            clip = pymupdf.Rect(*image.bbox)
            data = _with_page(storage, job_id, result.page,
                              lambda p, _, clip=clip: p.get_pixmap(dpi=dpi, clip=clip).tobytes("png"))
            if data is not None:
                key = f"jobs/{job_id}/pages/{result.page:04d}/images/{image.image_id}.png"
                image = image.model_copy(update={"source_uri": storage.put(key, data)})
        images.append(image)
    return result.model_copy(update={"images": images})


def page_text(storage: LocalStorage, ir_uri: str) -> tuple[list[dict], list[dict]]:
    """The parsed page's text blocks (box and the start of their text), drawn under the SKU boxes, and
    its words (box and text), which the table tool sorts into rows and columns; none when the parsed
    page is gone (storage cleaned up)."""
    try:
        page = ParsedPage.model_validate_json(storage.get(ir_uri))
    except (StorageError, ValueError):
        return [], []
    blocks = [{"bbox": list(b.bbox), "text": b.text[:BLOCK_TEXT]} for b in page.text_blocks]
    spans = (span for b in page.text_blocks for line in b.lines for span in line.spans)
    words = [{"bbox": list(bbox), "text": text} for span in spans for bbox, text in _words(span)]
    return blocks, words[:MAX_WORDS]


def _words(span: TextSpan) -> list[tuple[BBox, str]]:
    """A span cut at its spaces, and where Chinese meets Latin letters or digits, where it has a box per
    character (a text layer's line of several cells is one span; an OCR word runs a name into its price,
    '鹹蛋苦瓜120'), else the span as it is."""
    if len(span.char_boxes) != len(span.text):
        return [(span.bbox, span.text)] if span.text.strip() else []
    words: list[tuple[BBox, str]] = []
    start = None
    for i, char in enumerate(span.text + " "):
        if start is not None and (char.isspace() or _cjk(char) != _cjk(span.text[i - 1])):
            boxes = span.char_boxes[start:i]
            words.append(((min(b[0] for b in boxes), min(b[1] for b in boxes),
                           max(b[2] for b in boxes), max(b[3] for b in boxes)), span.text[start:i]))
            start = None
        if start is None and not char.isspace():
            start = i
    return words


def _cjk(char: str) -> bool:
    return unicodedata.east_asian_width(char) in "WF"
