"""PyMuPDF backend: text blocks with lines, fonts and boxes, and the embedded images of a page."""

from __future__ import annotations

import hashlib

import pymupdf

from skuflow_contracts.ids import image_id
from skuflow_contracts.ir import ImageRegion, ParsedPage, TextBlock, TextLine
from skuflow_parser.domain.document import PageParse, UnreadableDocument, text_coverage

BOLD_FLAG = 16


def open_document(data: bytes) -> pymupdf.Document:
    """Open a PDF or raise UnreadableDocument with the reason a merchant would be told."""
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:
        raise UnreadableDocument("corrupt_pdf", f"the file is not a readable PDF ({exc})") from exc
    if doc.needs_pass:
        raise UnreadableDocument("security:encrypted_pdf",
                                 "the PDF is encrypted; remove the password protection and re-upload")
    if doc.page_count == 0:
        raise UnreadableDocument("empty_pdf", "the PDF has no pages")
    return doc


def _round_box(rect) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = rect
    return (round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2))


def _text_blocks(page: pymupdf.Page) -> list[TextBlock]:
    blocks: list[TextBlock] = []
    for raw in page.get_text("dict", flags=pymupdf.TEXTFLAGS_TEXT)["blocks"]:
        lines, sizes, bold = [], [], False
        for line in raw.get("lines", []):
            text = "".join(span["text"] for span in line["spans"]).strip()
            if text:
                lines.append(TextLine(bbox=_round_box(line["bbox"]), text=text))
            for span in line["spans"]:
                sizes.append(span["size"])
                bold = bold or bool(span["flags"] & BOLD_FLAG)
        if lines:
            blocks.append(TextBlock(block_id=len(blocks), bbox=_round_box(raw["bbox"]),
                                    text="\n".join(line.text for line in lines), lines=lines,
                                    font_size=round(max(sizes), 2), bold=bold))
    return blocks


def _image_bytes(doc: pymupdf.Document, xref: int) -> tuple[bytes, str, int, int]:
    """Bytes of an embedded image; masked or non-RGB images are converted to PNG."""
    info = doc.extract_image(xref)
    if info and not info.get("smask") and info.get("colorspace", 3) in (1, 3):
        return info["image"], info["ext"], info["width"], info["height"]
    pix = pymupdf.Pixmap(doc, xref)
    if pix.n - pix.alpha >= 4:
        pix = pymupdf.Pixmap(pymupdf.csRGB, pix)
    return pix.tobytes("png"), "png", pix.width, pix.height


def parse_page(doc: pymupdf.Document, index: int, file_hash: str) -> PageParse:
    page = doc[index]
    number = index + 1
    width, height = page.rect.width, page.rect.height
    blocks = _text_blocks(page)
    images: list[ImageRegion] = []
    data: dict[str, bytes] = {}
    for xref, *_ in page.get_images(full=True):
        for rect in page.get_image_rects(xref):
            if rect.is_empty or rect.is_infinite:
                continue
            content, ext, w, h = _image_bytes(doc, xref)
            ident = image_id(file_hash, number, len(images) + 1)
            images.append(ImageRegion(image_id=ident, bbox=_round_box(rect), width_px=w, height_px=h,
                                      content_hash=hashlib.md5(content).hexdigest(), ext=ext))
            data[ident] = content
    parsed = ParsedPage(page=number, width=width, height=height, rotation=page.rotation,
                        parser_backend="pymupdf", text_blocks=blocks, images=images,
                        text_coverage=text_coverage([b.bbox for b in blocks], width, height))
    return PageParse(page=parsed, image_bytes=data)
