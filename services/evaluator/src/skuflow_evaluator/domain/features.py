"""What the evaluator measures on a page before it is parsed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageGlance:
    """The prescan's look at every page: enough to tell a blank page and a text layer."""

    page: int
    text_chars: int  # non-space characters in the text layer
    picture_share: float  # share of the page covered by pictures


@dataclass(frozen=True)
class PageFeatures:
    """A sampled page, measured more closely."""

    page: int
    text_chars: int
    ocr_reason: str | None  # why the parser will have to OCR the page (the parser's own rule), or None
    stored_rotated: bool  # the page is stored sideways (/Rotate, or its text runs across the stored page)
    picture_share: float
    column_alignment: float  # share of text lines that start in a column shared with two others
    scan_dpi: float | None  # resolution of a picture covering half the page or more (a scan)
    picture_edges: tuple[int, ...] = ()  # short edge in pixels of each product-sized picture
