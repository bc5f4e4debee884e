"""What makes a born-digital page hard after it is drawn: rotation, scanning, a garbled text layer.

Each treatment keeps what the page shows (the truth) and changes only how it is stored, the way real
catalogs go wrong: a landscape page stored rotated, a page that went through a scanner, a font whose
character map was lost.
"""

from __future__ import annotations

import random

import numpy as np
import pymupdf
from PIL import Image, ImageFilter

from skuflow_cli.golden.canvas import FONT_NAME

SCAN_DPI = 150
MAX_SKEW_DEGREES = 2.0


def rotate(doc: pymupdf.Document, index: int) -> None:
    """Store a page drawn in its displayed (landscape) frame as a portrait page with /Rotate 90.

    The content is turned a quarter counter-clockwise in the page's own space, so that viewers (which
    turn the page a quarter clockwise) show exactly what was drawn; the truth needs no change.
    """
    page = doc[index]
    width, height = page.rect.width, page.rect.height
    streams = page.get_contents()
    doc.update_stream(streams[0], f"q 0 1 -1 0 {height:g} 0 cm\n".encode() + doc.xref_stream(streams[0]))
    doc.update_stream(streams[-1], doc.xref_stream(streams[-1]) + b"\nQ\n")
    page.set_mediabox(pymupdf.Rect(0, 0, height, width))
    page.set_rotation(90)


def scan(doc: pymupdf.Document, index: int, rng: random.Random, *, dpi: float = SCAN_DPI,
         blur: float = 0.0) -> pymupdf.Matrix:
    """Replace a page by a noisy, slightly skewed JPEG of itself at ``dpi``, with no text layer (and a
    Gaussian ``blur`` of that many pixels, a scanner out of focus).

    Returns the skew (in page points) so the caller can move the truth's bboxes along with the picture.
    """
    page = doc[index]
    rect = page.rect
    centre_x, centre_y = rect.width / 2, rect.height / 2
    angle = rng.uniform(0.3, MAX_SKEW_DEGREES) * rng.choice((-1, 1))
    skew = (pymupdf.Matrix(1, 0, 0, 1, -centre_x, -centre_y) * pymupdf.Matrix(angle)
            * pymupdf.Matrix(1, 0, 0, 1, centre_x, centre_y))
    zoom = dpi / 72
    pix = page.get_pixmap(matrix=skew * pymupdf.Matrix(zoom, zoom), alpha=False)
    width, height = round(rect.width * zoom), round(rect.height * zoom)
    pixels = _sheet(np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, pix.n), -pix.x, -pix.y,
                    width, height)
    if blur:
        pixels = np.asarray(Image.fromarray(pixels).filter(ImageFilter.GaussianBlur(blur)))
    image = pymupdf.Pixmap(pymupdf.csRGB, width, height, _scanner_noise(pixels, rng).tobytes(), False)
    jpeg = image.tobytes("jpeg", jpg_quality=rng.randint(40, 60))
    doc.delete_page(index)
    scanned = doc.new_page(index, width=rect.width, height=rect.height)
    scanned.insert_image(scanned.rect, stream=jpeg, keep_proportion=False)
    return skew


def garble(doc: pymupdf.Document, index: int) -> None:
    """Give the page its own copy of the catalog font without /ToUnicode: it still looks right, but text
    extraction maps glyph ids to the wrong characters."""
    page = doc[index]
    font = next(f[0] for f in page.get_fonts() if f[4] == FONT_NAME)
    copy = doc.get_new_xref()
    doc.update_object(copy, doc.xref_object(font, compressed=True))
    doc.xref_set_key(copy, "ToUnicode", "null")
    kind, value = doc.xref_get_key(page.xref, "Resources")
    resources = doc.xref_object(int(value.split()[0]), compressed=True) if kind == "xref" else value
    reference = f"/{FONT_NAME} {font} 0 R"
    if reference not in resources:
        raise ValueError(f"page {index + 1}: font {FONT_NAME} is not a direct entry of the page resources")
    own = doc.get_new_xref()
    doc.update_object(own, resources.replace(reference, f"/{FONT_NAME} {copy} 0 R"))
    doc.xref_set_key(page.xref, "Resources", f"{own} 0 R")


def _sheet(pixels: np.ndarray, x: int, y: int, width: int, height: int) -> np.ndarray:
    """The ``width`` x ``height`` window at (x, y) of the rendering, white where it falls outside."""
    sheet = np.full((height, width, 3), 255, np.uint8)
    part = pixels[max(y, 0):y + height, max(x, 0):x + width, :3]
    sheet[max(-y, 0):max(-y, 0) + part.shape[0], max(-x, 0):max(-x, 0) + part.shape[1]] = part
    return sheet


def _scanner_noise(pixels: np.ndarray, rng: random.Random) -> np.ndarray:
    """Yellowish paper, sensor noise and a sprinkle of dust."""
    noise = np.random.default_rng(rng.randrange(1 << 32))
    paper = np.array([rng.uniform(0.95, 0.99), rng.uniform(0.93, 0.97), rng.uniform(0.86, 0.93)], np.float32)
    image = pixels.astype(np.float32) * paper
    image += noise.normal(0.0, rng.uniform(3.0, 6.0), pixels.shape[:2])[..., None]
    dust = noise.integers(0, [pixels.shape[0], pixels.shape[1]], size=(rng.randint(150, 600), 2))
    image[dust[:, 0], dust[:, 1]] = rng.uniform(40, 110)
    return np.clip(image, 0, 255).astype(np.uint8)
