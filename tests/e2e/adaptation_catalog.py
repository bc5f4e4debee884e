"""A price list whose products are known by their barcode (条码) alone, every row the same glass (玻璃杯)
in another size: the committed reader takes the repeated name for the products, and the binder flags the
page for the name every row repeats. One page corrected teaches the rest of its layout to read the
barcodes."""

from pathlib import Path

import pymupdf

HEADER = ("条码", "品名", "规格", "价格")
COLUMNS = (50, 200, 330, 450)
ROWS = 8


def barcode(page: int, row: int) -> str:
    return f"69012345{page * 100 + row:05d}"


def truth(page: int) -> list[dict]:
    """The page's products as a person reads them."""
    return [{"model": barcode(page, n), "product_name": "玻璃杯", "size": f"{n + 1}00ml", "price": f"{n + 1}.50"}
            for n in range(ROWS)]


def barcode_catalog(out: Path, pages: range) -> Path:
    """One page per number in ``pages`` (its barcodes carry the number, so two catalogs differ)."""
    doc = pymupdf.open()
    for number in pages:
        page = doc.new_page(width=595, height=842)
        page.insert_text((50, 50), "玻璃器皿价目表", fontsize=16, fontname="china-s")
        rows = [HEADER, *[(s["model"], s["product_name"], s["size"], s["price"]) for s in truth(number)]]
        for r, row in enumerate(rows):
            for x, text in zip(COLUMNS, row, strict=True):
                page.insert_text((x, 100 + 22 * r), text, fontsize=10, fontname="china-s")
    doc.save(out)
    return out
