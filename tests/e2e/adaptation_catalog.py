"""A price list whose products are known by their item number alone, in a column headed 行号 (row
number, which the committed reader takes for a row count), every row the same glass (玻璃杯) in another
size: the committed reader takes the repeated name for the products, and the binder flags the page for
the name every row repeats. One page corrected teaches the rest of its layout to read the item numbers."""

from pathlib import Path

import pymupdf

HEADER = ("行号", "品名", "规格", "价格")  # under 序号 (serial number) the reader reads the item numbers untaught
COLUMNS = (50, 200, 330, 450)
ROWS = 8


def item_number(page: int, row: int) -> str:
    return f"{page * 100 + row}"


def truth(page: int) -> list[dict]:
    """The page's products as a person reads them."""
    return [{"model": item_number(page, n), "product_name": "玻璃杯", "size": f"{n + 1}00ml", "price": f"{n + 1}.50"}
            for n in range(ROWS)]


def item_catalog(out: Path, pages: range) -> Path:
    """One page per number in ``pages`` (its item numbers carry the number, so two catalogs differ)."""
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
