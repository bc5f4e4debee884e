"""PyMuPDF backend: the document, text blocks with lines, fonts and boxes, and image bytes.

Everything comes out in points of the page *as displayed*: MuPDF reports unrotated coordinates,
so boxes go through the page's rotation matrix. An image placed several times (a logo on every
page) is decoded once per document through ``ImageCache``.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass, field

import pymupdf
from PIL import Image

from skuflow_contracts.ir import BBox, TextBlock, TextLine, TextSpan
from skuflow_parser.backends.image_hash import dhash, picture_dhash
from skuflow_parser.backends.png import png_bytes
from skuflow_parser.domain.document import UnreadableDocument
from skuflow_parser.domain.glyphs import printed_glyphs
from skuflow_parser.domain.security import DocumentFacts, SecurityLimits

log = logging.getLogger(__name__)

BOLD_FLAG = 16
TALL_GLYPHS = 2.5  # a span box this many times its font size tall comes from broken font metrics
HORIZONTAL = 0.01  # a line's direction (dx, dy) with |dy| under this runs left to right


def open_document(data: bytes) -> pymupdf.Document:
    """Open a PDF or raise UnreadableDocument with the reason a merchant would be told."""
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # MuPDF raises several types for broken files
        raise UnreadableDocument("corrupt_pdf", f"the file is not a readable PDF ({exc})") from exc
    if doc.needs_pass:
        raise UnreadableDocument("security:encrypted_pdf",
                                 "the PDF is encrypted; remove the password protection and re-upload")
    if doc.page_count == 0:
        raise UnreadableDocument("empty_pdf", "the PDF has no pages")
    return doc


JAVASCRIPT = re.compile(r"/(JavaScript|JS)\b")


def document_facts(doc: pymupdf.Document, limits: SecurityLimits) -> DocumentFacts:
    """What the security check needs; objects are only scanned when their number is within limits."""
    objects = doc.xref_length() - 1
    scripted = objects <= limits.max_objects and any(
        JAVASCRIPT.search(doc.xref_object(xref, compressed=True) or "") for xref in range(1, objects + 1))
    return DocumentFacts(page_count=doc.page_count, object_count=objects, has_javascript=scripted)


def render(page: pymupdf.Page, dpi: int, max_side: int) -> tuple[pymupdf.Pixmap, float]:
    """The displayed page in RGB at ``dpi`` but never beyond ``max_side`` pixels (huge pages), and its zoom."""
    zoom = dpi / 72 * min(1.0, max_side / (max(page.rect.width, page.rect.height) * dpi / 72))
    return page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csRGB, alpha=False), zoom


@dataclass
class EmbeddedImage:
    data: bytes
    ext: str
    width: int
    height: int
    md5: str
    perceptual_hash: str | None

    @classmethod
    def of(cls, data: bytes, ext: str, width: int, height: int, picture: Image.Image | None = None) -> EmbeddedImage:
        """``picture``: the pixels already decoded, hashed as they are instead of decoding ``data``."""
        return cls(data, ext, width, height, hashlib.md5(data).hexdigest(),
                   picture_dhash(picture) if picture else dhash(data))


@dataclass
class ImageCache:
    """Decoded images by xref, shared by all pages of one document."""

    by_xref: dict[int, EmbeddedImage | None] = field(default_factory=dict)

    def get(self, doc: pymupdf.Document, xref: int) -> EmbeddedImage | None:
        """None for an image MuPDF cannot decode: that picture is lost, not the page."""
        if xref not in self.by_xref:
            try:
                self.by_xref[xref] = _image(doc, xref)
            except Exception as exc:
                log.warning("image not decodable", extra={"fields": {"xref": xref, "error": str(exc)[:200]}})
                self.by_xref[xref] = None
        return self.by_xref[xref]


def _keeps_stream(ext: str, colorspace: int, masked: bool) -> bool:
    """A viewer can show the stream as it is: JPEG or PNG (an inline image's, already encoded by MuPDF),
    gray or RGB, no mask."""
    return not masked and colorspace in (1, 3) and ext in ("jpeg", "png")


PIXEL_MODES = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}  # by samples per pixel, alpha included
VIEWABLE_SPACES = ("DeviceGray", "DeviceRGB", "ICCBased(Gray", "ICCBased(RGB")  # others (CMYK, spot, Lab) → RGB
PNG_LEVEL = 2  # ISA-L's deflate level (0-3): its 3 takes three times as long for no smaller files


def _resized(mask: pymupdf.Pixmap, width: int, height: int) -> pymupdf.Pixmap | None:
    """A soft mask scaled to its picture's size (None, i.e. opaque, when it is not a plain gray mask)."""
    if mask.n != 1 or mask.alpha:
        return None
    scaled = Image.frombytes("L", (mask.width, mask.height), mask.samples).resize((width, height))
    return pymupdf.Pixmap(pymupdf.csGRAY, width, height, scaled.tobytes(), False)


def _as_png(pix: pymupdf.Pixmap, mask: pymupdf.Pixmap | None) -> EmbeddedImage:
    """Pixels a viewer cannot take as they are stored (Flate, masked, CMYK, JPX…) as a PNG, hashed
    from the pixels in hand rather than by decoding the PNG again."""
    if mask is not None and (mask.width, mask.height) != (pix.width, pix.height):
        mask = _resized(mask, pix.width, pix.height)  # PDF allows a soft mask of another size; MuPDF does not
    if mask is not None:
        if pix.alpha:  # MuPDF joins a mask only to a picture without alpha of its own
            pix = pymupdf.Pixmap(pix, 0)
        pix = pymupdf.Pixmap(pix, mask)
    if pix.colorspace and not pix.colorspace.name.startswith(VIEWABLE_SPACES):
        pix = pymupdf.Pixmap(pymupdf.csRGB, pix)
    samples = pix.samples
    picture = Image.frombuffer(PIXEL_MODES[pix.n], (pix.width, pix.height), samples, "raw", PIXEL_MODES[pix.n], 0, 1)
    return EmbeddedImage.of(png_bytes(samples, pix.width, pix.height, pix.n, PNG_LEVEL), "png", pix.width, pix.height,
                            picture)


def _image(doc: pymupdf.Document, xref: int) -> EmbeddedImage:
    """A JPEG as its original stream where a viewer could show it; anything else as a PNG (a Flate
    stream is raw pixels: MuPDF would encode a PNG of it too, only slower)."""
    if "DCTDecode" in doc.xref_get_key(xref, "Filter")[1]:
        info = doc.extract_image(xref)
        if info and _keeps_stream(info["ext"], info.get("colorspace", 3), bool(info.get("smask"))):
            return EmbeddedImage.of(info["image"], info["ext"], info["width"], info["height"])
    kind, smask = doc.xref_get_key(xref, "SMask")
    return _as_png(pymupdf.Pixmap(doc, xref), pymupdf.Pixmap(doc, int(smask.split()[0])) if kind == "xref" else None)


def inline_image(block: dict) -> EmbeddedImage:
    """An image block of ``get_text("dict")`` (an inline image has no xref to extract it by)."""
    if _keeps_stream(block["ext"], block["colorspace"], bool(block.get("mask"))):
        return EmbeddedImage.of(block["image"], block["ext"], block["width"], block["height"])
    mask = block.get("mask")
    return _as_png(pymupdf.Pixmap(block["image"]), pymupdf.Pixmap(mask) if mask else None)


def displayed(rect, matrix: pymupdf.Matrix | None) -> BBox:  # a Rect or a 4-tuple
    """A box of the unrotated page in the displayed frame; ``None`` for an upright page, whose boxes
    need no transform (it would cost more than the rest of reading a character)."""
    x0, y0, x1, y1 = rect if matrix is None else pymupdf.Rect(rect) * matrix
    return (round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2))


def rotation_of(page: pymupdf.Page) -> pymupdf.Matrix | None:
    """The page's rotation matrix, None when it is not rotated."""
    return page.rotation_matrix if page.rotation else None


def _fitted(box: tuple, origin_y: float, raw: dict, horizontal: bool) -> tuple:
    """A glyph box from the baseline and the font's own ascent and descent where the box PyMuPDF
    gives a horizontal line is many times the font size tall (a font with broken metrics: a 10 pt row
    120 pt tall, which would merge every row of its table into one)."""
    x0, y0, x1, y1 = box
    if not horizontal or y1 - y0 <= TALL_GLYPHS * raw["size"]:
        return box
    ascent, descent = raw.get("ascender", 0.8), raw.get("descender", -0.2)
    return (x0, origin_y - ascent * raw["size"], x1, origin_y - descent * raw["size"])


def _span(raw: dict, matrix: pymupdf.Matrix | None, horizontal: bool = True) -> TextSpan:
    chars = printed_glyphs([(c["c"], displayed(_fitted(c["bbox"], c["origin"][1], raw, horizontal), matrix))
                            for c in raw["chars"]], raw["font"])
    return TextSpan(bbox=displayed(_fitted(raw["bbox"], raw["origin"][1], raw, horizontal), matrix),
                    text="".join(c for c, _ in chars), font=raw["font"],
                    size=round(raw["size"], 2), bold=bool(raw["flags"] & BOLD_FLAG),
                    char_boxes=[box for _, box in chars])


def _union(boxes: list[BBox], fallback: BBox) -> BBox:
    if not boxes:
        return fallback
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def text_blocks(page: pymupdf.Page) -> list[TextBlock]:
    """Blocks → lines → spans → character boxes (``rawdict`` costs no more than ``dict``). A line's and
    a block's box are their spans' boxes together."""
    matrix = rotation_of(page)
    blocks: list[TextBlock] = []
    for raw in page.get_text("rawdict", flags=pymupdf.TEXTFLAGS_TEXT)["blocks"]:
        lines: list[TextLine] = []
        spans: list[TextSpan] = []
        for line in raw.get("lines", []):
            horizontal = line["wmode"] == 0 and abs(line["dir"][1]) < HORIZONTAL
            line_spans = [_span(span, matrix, horizontal) for span in line["spans"]]
            text = "".join(span.text for span in line_spans).strip()
            if text:
                lines.append(TextLine(bbox=_union([span.bbox for span in line_spans],
                                                  displayed(line["bbox"], matrix)), text=text, spans=line_spans))
            spans += line_spans
        sizes = [span.size for span in spans]
        bold = any(span.bold for span in spans)
        if lines:
            blocks.append(TextBlock(block_id=len(blocks), bbox=_union([line.bbox for line in lines],
                                                                      displayed(raw["bbox"], matrix)),
                                    text="\n".join(line.text for line in lines), lines=lines,
                                    font_size=round(max(sizes), 2), bold=bold))
    return blocks
