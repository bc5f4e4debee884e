"""A three-page catalog for the review loop: page 1 is read with confidence (a generated golden
page), page 2 is one product card set halfway between two photos (a binding nobody can decide from
the layout: two candidates), page 3 is a page the engine doubts (a generated golden page)."""

import io
from pathlib import Path

import pymupdf
from PIL import Image

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "generated"
CARD = (("SF-1001", 12), ("Glass tumbler 300ml", 10), ("Price: 12.00 USD", 10))


def _photo(color: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (400, 400), color).save(out, "PNG")
    return out.getvalue()


def _undecidable_page(doc: pymupdf.Document) -> None:
    page = doc.new_page(width=595, height=842)
    page.insert_text((200, 80), "Product Catalog 2026", fontsize=18)
    page.insert_image(pymupdf.Rect(60, 200, 200, 340), stream=_photo((200, 30, 30)))
    page.insert_image(pymupdf.Rect(395, 200, 535, 340), stream=_photo((30, 30, 200)))
    width = max(pymupdf.get_text_length(text, fontsize=size) for text, size in CARD)
    for n, (text, size) in enumerate(CARD):
        page.insert_text((297.5 - width / 2, 260 + 16 * n), text, fontsize=size)


def review_catalog(out: Path) -> Path:
    doc = pymupdf.open()
    with pymupdf.open(GOLDEN / "g21_zh_price_list.pdf") as source:
        doc.insert_pdf(source, from_page=4, to_page=4)
    _undecidable_page(doc)
    with pymupdf.open(GOLDEN / "g08_mixed_showcase.pdf") as source:
        doc.insert_pdf(source, from_page=3, to_page=3)
    doc.save(out)
    return out
