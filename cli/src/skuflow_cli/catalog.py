"""Sample catalogs with exact truth: a cover, product-grid pages (C) and price-table pages (A).

Used by ``make demo``, the end-to-end tests and the benchmarks. Product pictures are generated
patterns; what matters is the geometry and the text. Issue #3 grows this into the golden-set
generator.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

PAGE_W, PAGE_H = 595.0, 842.0
FONT = "china-s"
NAMES = ("不锈钢保温杯", "玻璃水杯", "陶瓷马克杯", "便携咖啡杯", "儿童吸管杯", "竹纤维餐盘", "硅胶折叠碗",
         "密封保鲜盒", "木质砧板", "铸铁煎锅")
MATERIALS = ("304不锈钢", "高硼硅玻璃", "陶瓷", "竹纤维", "食品级硅胶")
SIZES = ("350ml", "500ml", "750ml", "20cm", "28cm")


@dataclass
class TruthSku:
    model: str
    product_name: str
    price: str
    size: str | None = None
    material: str | None = None
    image_bbox: list[float] | None = None

    def as_truth(self) -> dict:
        return {"model": self.model, "product_name": self.product_name, "price": self.price,
                "size": self.size, "color": None, "material": self.material,
                **({"image_bbox": self.image_bbox} if self.image_bbox else {})}


@dataclass
class TruthPage:
    page: int
    page_type: str
    layout: str | None
    skus: list[TruthSku] = field(default_factory=list)

    def as_truth(self) -> dict:
        return {"page": self.page, "page_type": self.page_type, "layout": self.layout,
                "uncertain": False, "skus": [s.as_truth() for s in self.skus]}


def _picture(rng: random.Random, width: int = 720, height: int = 660) -> pymupdf.Pixmap:
    """A flat-coloured product 'photo' with a contrasting block (its middle half)."""
    outer = bytes(rng.randrange(120, 250) for _ in range(3))
    inner = bytes(rng.randrange(0, 110) for _ in range(3))
    left, right, top, bottom = width // 4, 3 * width // 4, height // 4, 3 * height // 4
    plain, crossed = outer * width, outer * left + inner * (right - left) + outer * (width - right)
    return _pixmap(width, height, plain * top + crossed * (bottom - top) + plain * (height - bottom))


def _logo() -> pymupdf.Pixmap:
    return _pixmap(120, 40, bytes((200, 30, 30)) * 120 * 40)


def _pixmap(width: int, height: int, rgb: bytes) -> pymupdf.Pixmap:
    """Pixels given whole and placed as they are. Pixmap.set_rect filled a rectangle with a Python call
    per sample, and a PNG made of it was only decoded again (a 60-page catalog took over two minutes)."""
    return pymupdf.Pixmap(pymupdf.csRGB, width, height, rgb, False)


def _sku(rng: random.Random, serial: int) -> TruthSku:
    return TruthSku(model=f"SF-{serial:04d}", product_name=rng.choice(NAMES),
                    price=f"{rng.randrange(5, 900)}.{rng.choice(['00', '50', '90'])}",
                    size=rng.choice(SIZES), material=rng.choice(MATERIALS))


def _decorate(page: pymupdf.Page, logo: pymupdf.Pixmap, number: int) -> None:
    page.insert_image(pymupdf.Rect(30, 20, 90, 40), pixmap=logo)
    page.insert_text((PAGE_W - 90, PAGE_H - 20), f"第 {number} 页", fontname=FONT, fontsize=8)


def _grid_page(page: pymupdf.Page, rng: random.Random, serial: int, number: int) -> TruthPage:
    truth = TruthPage(number, "C", "L2")
    cell_w, cell_h, left, top = 250.0, 330.0, 40.0, 90.0
    captions = page.new_shape()  # the page's text in one content stream, not a stream per text
    for row in range(2):
        for col in range(2):
            sku = _sku(rng, serial + len(truth.skus))
            x, y = left + col * (cell_w + 15), top + row * (cell_h + 25)
            box = pymupdf.Rect(x, y, x + 220, y + 200)
            page.insert_image(box, pixmap=_picture(rng), keep_proportion=False)
            sku.image_bbox = [round(v, 2) for v in box]
            text = "\n".join((f"品名：{sku.product_name}", f"型号：{sku.model}", f"规格：{sku.size}",
                              f"材质：{sku.material}", f"价格：¥{sku.price}"))
            captions.insert_textbox(pymupdf.Rect(x, y + 208, x + 220, y + 300), text, fontname=FONT, fontsize=10)
            truth.skus.append(sku)
    captions.commit()
    return truth


def _table_page(page: pymupdf.Page, rng: random.Random, serial: int, number: int, rows: int = 10) -> TruthPage:
    truth = TruthPage(number, "A", "L1")
    columns = (("型号", 50), ("品名", 140), ("规格", 290), ("材质", 370), ("价格", 480))
    y = 110.0
    cells = page.new_shape()  # the page's text in one content stream, not a stream per text
    for label, x in columns:
        cells.insert_text((x, y), label, fontname=FONT, fontsize=11)
    for index in range(rows):
        sku = _sku(rng, serial + index)
        y += 26
        for (_, x), value in zip(columns, (sku.model, sku.product_name, sku.size, sku.material,
                                          f"¥{sku.price}"), strict=True):
            cells.insert_text((x, y), value, fontname=FONT, fontsize=10)
        truth.skus.append(sku)
    cells.commit()
    return truth


def generate_catalog(path: Path, *, pages: int = 6, seed: int = 7) -> list[TruthPage]:
    """Write a catalog of ``pages`` pages (cover + alternating grid and table pages)."""
    rng = random.Random(seed)
    logo = _logo()
    doc = pymupdf.open()
    truth: list[TruthPage] = []
    serial = 1
    for number in range(1, pages + 1):
        page = doc.new_page(width=PAGE_W, height=PAGE_H)
        _decorate(page, logo, number)
        if number == 1:
            page.insert_text((60, 300), "2026 春季产品目录", fontname=FONT, fontsize=28)
            page.insert_text((60, 340), "厨房与餐具系列", fontname=FONT, fontsize=16)
            truth.append(TruthPage(number, "D", None))
            continue
        make = _grid_page if number % 2 == 0 else _table_page
        page_truth = make(page, rng, serial, number)
        serial += len(page_truth.skus)
        truth.append(page_truth)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path, garbage=3, deflate=True)
    doc.close()
    return truth


def truth_document(pages: list[TruthPage]) -> dict:
    return {"language": "zh", "expected_route": "AUTO", "pages": [p.as_truth() for p in pages]}
