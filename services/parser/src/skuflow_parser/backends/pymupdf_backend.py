"""PyMuPDF backend: text blocks with lines, fonts and boxes, and the embedded images of a page.

Everything comes out in points of the page *as displayed*: MuPDF reports unrotated coordinates,
so boxes go through the page's rotation matrix. An image placed several times (a logo on every
page) is decoded once per document through ``ImageCache``.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import re
from dataclasses import dataclass, field

import pymupdf

from skuflow_contracts.ids import image_id
from skuflow_contracts.ir import BBox, ImageRegion, TextBlock, TextLine, TextSpan
from skuflow_parser.backends.image_hash import dhash
from skuflow_parser.domain.document import UnreadableDocument
from skuflow_parser.domain.images import tile_groups, union
from skuflow_parser.domain.security import DocumentFacts, SecurityLimits

BOLD_FLAG = 16
RASTERIZE_TIMEOUT_S = 30
RASTERIZE_DPI = 150


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


@dataclass
class EmbeddedImage:
    data: bytes
    ext: str
    width: int
    height: int
    md5: str
    perceptual_hash: str | None


@dataclass
class ImageCache:
    """Decoded images by xref, shared by all pages of one document."""

    by_xref: dict[int, EmbeddedImage] = field(default_factory=dict)

    def get(self, doc: pymupdf.Document, xref: int) -> EmbeddedImage:
        if xref not in self.by_xref:
            data, ext, width, height = _image_bytes(doc, xref)
            self.by_xref[xref] = EmbeddedImage(data, ext, width, height, hashlib.md5(data).hexdigest(), dhash(data))
        return self.by_xref[xref]


def _image_bytes(doc: pymupdf.Document, xref: int) -> tuple[bytes, str, int, int]:
    """The original stream where a viewer could show it (JPEG, PNG); masked, CMYK or JPX → PNG."""
    info = doc.extract_image(xref)
    if info and not info.get("smask") and info.get("colorspace", 3) in (1, 3) and info["ext"] in ("jpeg", "png"):
        return info["image"], info["ext"], info["width"], info["height"]
    pix = pymupdf.Pixmap(doc, xref)
    if info and info.get("smask"):
        pix = pymupdf.Pixmap(pix, pymupdf.Pixmap(doc, info["smask"]))
    if pix.colorspace and pix.colorspace.n >= 4:
        pix = pymupdf.Pixmap(pymupdf.csRGB, pix)
    return pix.tobytes("png"), "png", pix.width, pix.height


def _displayed(rect, matrix: pymupdf.Matrix) -> BBox:  # a Rect or a 4-tuple
    x0, y0, x1, y1 = pymupdf.Rect(rect) * matrix
    return (round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2))


def _span(raw: dict, matrix: pymupdf.Matrix) -> TextSpan:
    chars = raw["chars"]
    return TextSpan(bbox=_displayed(raw["bbox"], matrix), text="".join(c["c"] for c in chars), font=raw["font"],
                    size=round(raw["size"], 2), bold=bool(raw["flags"] & BOLD_FLAG),
                    char_boxes=[_displayed(c["bbox"], matrix) for c in chars])


def text_blocks(page: pymupdf.Page) -> list[TextBlock]:
    """Blocks → lines → spans → character boxes (``rawdict`` costs no more than ``dict``)."""
    matrix = page.rotation_matrix
    blocks: list[TextBlock] = []
    for raw in page.get_text("rawdict", flags=pymupdf.TEXTFLAGS_TEXT)["blocks"]:
        lines: list[TextLine] = []
        spans: list[TextSpan] = []
        for line in raw.get("lines", []):
            line_spans = [_span(span, matrix) for span in line["spans"]]
            text = "".join(span.text for span in line_spans).strip()
            if text:
                lines.append(TextLine(bbox=_displayed(line["bbox"], matrix), text=text, spans=line_spans))
            spans += line_spans
        sizes = [span.size for span in spans]
        bold = any(span.bold for span in spans)
        if lines:
            blocks.append(TextBlock(block_id=len(blocks), bbox=_displayed(raw["bbox"], matrix),
                                    text="\n".join(line.text for line in lines), lines=lines,
                                    font_size=round(max(sizes), 2), bold=bold))
    return blocks


@dataclass
class PlacedImage:
    region: ImageRegion
    data: bytes


def _rasterize(page: pymupdf.Page, box: BBox) -> bytes | None:
    """Render one region (fragmented tiles → one picture); None when it takes over 30 s."""
    clip = pymupdf.Rect(box) * page.derotation_matrix
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        future = pool.submit(lambda: page.get_pixmap(clip=clip, dpi=RASTERIZE_DPI).tobytes("png"))
        try:
            return future.result(timeout=RASTERIZE_TIMEOUT_S)
        except concurrent.futures.TimeoutError:
            return None


def page_images(doc: pymupdf.Document, page: pymupdf.Page, file_hash: str, cache: ImageCache) -> list[PlacedImage]:
    number = page.number + 1
    matrix = page.rotation_matrix
    placements: list[tuple[int, BBox]] = []
    for xref, *_ in page.get_images(full=True):
        for rect in page.get_image_rects(xref):
            if not (rect.is_empty or rect.is_infinite):
                placements.append((xref, _displayed(rect, matrix)))
    placements.sort(key=lambda item: (item[1][1], item[1][0]))
    fragmented = tile_groups([box for _, box in placements])
    in_group = {i for group in fragmented for i in group}
    placed: list[PlacedImage] = []

    def add(box: BBox, data: bytes, ext: str, width: int, height: int, md5: str, **extra: object) -> None:
        ident = image_id(file_hash, number, len(placed) + 1)
        placed.append(PlacedImage(ImageRegion(image_id=ident, bbox=box, width_px=width, height_px=height,
                                              content_hash=md5, ext=ext, **extra), data))

    def add_embedded(box: BBox, image: EmbeddedImage) -> None:
        add(box, image.data, image.ext, image.width, image.height, image.md5, perceptual_hash=image.perceptual_hash)

    for index, (xref, box) in enumerate(placements):
        if index not in in_group:
            add_embedded(box, cache.get(doc, xref))
    for group in fragmented:
        box = union([placements[i][1] for i in group])
        data = _rasterize(page, box)
        width = round((box[2] - box[0]) * RASTERIZE_DPI / 72)
        height = round((box[3] - box[1]) * RASTERIZE_DPI / 72)
        if data is None:
            add(box, b"", "png", width, height, "", is_fragmented=True, quality_warning="rasterize_timeout")
        else:
            add(box, data, "png", width, height, hashlib.md5(data).hexdigest(), is_fragmented=True,
                perceptual_hash=dhash(data))
    return placed
