"""Page screenshots: a moderate-dpi JPEG of the displayed page for a person or a later step to look at."""

from __future__ import annotations

import pymupdf

from skuflow_parser.backends.pymupdf_backend import render

DEFAULT_DPI = 100
MAX_SIDE_PX = 2000
JPEG_QUALITY = 80


def screenshot(page: pymupdf.Page, dpi: int = DEFAULT_DPI) -> bytes:
    pix, _ = render(page, dpi, MAX_SIDE_PX)
    return pix.tobytes("jpeg", jpg_quality=JPEG_QUALITY)
