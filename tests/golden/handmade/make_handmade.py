"""Builds the two hand-made golden documents; every text and picture sits at a coordinate chosen by hand.

The truth files next to the PDFs are written by hand (not by this script): they repeat the models,
values and picture rectangles below. Run from the repository root:

    .venv/bin/python tests/golden/handmade/make_handmade.py
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

HERE = Path(__file__).parent
FONT = "china-s"
FIXED_DATE = "D:20261122000000Z"


def photo(background: tuple[int, int, int], product: tuple[int, int, int], width: int = 300,
          height: int = 300) -> bytes:
    """A flat studio shot: the product as a block on a plain background."""
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, width, height), False)
    pix.set_rect(pix.irect, background)
    pix.set_rect(pymupdf.IRect(width // 4, height // 5, 3 * width // 4, 4 * height // 5), product)
    return pix.tobytes("jpeg", jpg_quality=70)


LOGO = photo((190, 30, 30), (240, 240, 240), 180, 60)


def text(page: pymupdf.Page, x: float, baseline: float, value: str, size: float = 10) -> None:
    page.insert_text((x, baseline), value, fontname=FONT, fontsize=size)


def rules(page: pymupdf.Page, xs: list[float], ys: list[float]) -> None:
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y), width=0.6)
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.6)


def save(doc: pymupdf.Document, name: str, title: str) -> None:
    doc.set_metadata({"title": title, "creator": "make_handmade.py", "producer": "make_handmade.py",
                      "creationDate": FIXED_DATE, "modDate": FIXED_DATE})
    doc.save(HERE / f"{name}.pdf", garbage=4, deflate=True, no_new_id=True)


def outdoor_catalog() -> None:
    """hm01: a bilingual 2x2 product page and a ruled price table."""
    doc = pymupdf.open()
    grid = doc.new_page(width=595, height=842)
    grid.insert_image(pymupdf.Rect(40, 24, 100, 44), stream=LOGO)
    text(grid, 110, 39, "山川户外 MOUNTAIN & RIVER", 11)
    text(grid, 40, 80, "2026 户外装备 Outdoor Gear", 18)
    products = (
        ((40, 110, 285, 330), ((200, 220, 230), (40, 40, 40)),
         ("品名 Name：登山杖", "型号 Model：MR-2201", "规格 Size：65-135cm", "材质 Material：碳纤维",
          "价格 Price：¥129.00")),
        ((310, 110, 555, 330), ((230, 230, 210), (30, 50, 110)),
         ("品名 Name：冲锋衣", "型号 Model：MR-3105", "规格 Size：XL", "颜色 Color：藏青色", "价格 Price：¥459.00")),
        ((40, 470, 285, 690), ((220, 210, 230), (200, 120, 40)),
         ("品名 Name：睡袋", "型号 Model：MR-4410", "规格 Size：220×80cm", "材质 Material：羽绒",
          "价格 Price：RMB 689.00")),
        ((310, 470, 555, 690), ((210, 230, 210), (230, 110, 20)),
         ("品名 Name：头灯", "型号 Model：MR-5003", "规格 Size：6×4cm", "颜色 Color：橙色", "价格 Price：¥89.00")),
    )
    for rect, colours, lines in products:
        grid.insert_image(pymupdf.Rect(rect), stream=photo(*colours), keep_proportion=False)
        for i, line in enumerate(lines):
            text(grid, rect[0], rect[3] + 20 + 16 * i, line)
    text(grid, 500, 815, "第 1 页 Page 1", 8)

    prices = doc.new_page(width=595, height=842)
    prices.insert_image(pymupdf.Rect(40, 24, 100, 44), stream=LOGO)
    text(prices, 110, 39, "山川户外 MOUNTAIN & RIVER", 11)
    text(prices, 40, 80, "价格表 Price List", 16)
    xs = [40, 130, 250, 360, 470, 555]
    for x, label in zip(xs, ("型号 Model", "品名 Name", "规格 Size", "材质 Material", "单价 Price"), strict=False):
        text(prices, x + 4, 115, label, 9)
    rows = (("MR-6101", "折叠椅", "50×40×80cm", "铝合金", "¥159.00"),
            ("MR-6102", "折叠桌", "90×60cm", "铝合金", "¥239.00"),
            ("MR-6205", "野餐垫", "200×150cm", "牛津布", "¥69.00"),
            ("MR-6310", "保温壶", "1000ml", "304不锈钢", "¥119.00"),
            ("MR-6311", "保温壶", "1500ml", "304不锈钢", "¥139.00"),
            ("MR-6420", "帐篷", "210×150cm", "涤纶", "¥599.00"),
            ("MR-6421", "帐篷", "210×210cm", "涤纶", "¥799.00"),
            ("MR-6530", "营地灯", "12×12cm", "ABS塑料", "询价"))
    for i, row in enumerate(rows):
        for x, value in zip(xs, row, strict=False):
            text(prices, x + 4, 137 + 22 * i, value)
    rules(prices, xs, [100 + 22 * i for i in range(10)])
    text(prices, 40, 320, "价格含税 Prices include VAT", 9)
    text(prices, 500, 815, "第 2 页 Page 2", 8)
    save(doc, "hm01_mixed_outdoor", "山川户外 2026")


def kitchen_catalog() -> None:
    """hm02: a cover, a single-column page (variants under one photo, a product with two photos) and a
    mixed page (marketing text, two product blocks, one without a model, and a table fragment)."""
    doc = pymupdf.open()
    cover = doc.new_page(width=595, height=842)
    cover.insert_image(pymupdf.Rect(60, 60, 160, 95), stream=LOGO)
    text(cover, 60, 300, "2026 厨房好物", 30)
    text(cover, 60, 340, "禾木家居 · 新品目录", 14)
    cover.insert_image(pymupdf.Rect(60, 380, 535, 680), stream=photo((180, 210, 190), (120, 80, 60), 400, 252),
                       keep_proportion=False)

    column = doc.new_page(width=595, height=842)
    column.insert_image(pymupdf.Rect(40, 20, 100, 40), stream=LOGO)
    text(column, 40, 70, "保温系列", 16)
    column.insert_image(pymupdf.Rect(40, 90, 240, 290), stream=photo((225, 225, 235), (150, 150, 160)),
                        keep_proportion=False)
    text(column, 260, 110, "真空保温杯", 14)
    for i, line in enumerate(("型号：HM-1001", "规格：500ml", "材质：304不锈钢", "颜色：白色", "价格：¥89.00")):
        text(column, 260, 132 + 18 * i, line)
    column.insert_image(pymupdf.Rect(40, 320, 240, 520), stream=photo((235, 225, 215), (60, 90, 160)),
                        keep_proportion=False)
    text(column, 260, 340, "陶瓷马克杯", 14)
    text(column, 260, 362, "规格：350ml")
    text(column, 260, 380, "材质：陶瓷")
    variant_xs = [260, 380, 470, 555]
    variants = (("型号", "颜色", "价格"), ("HM-2001-WH", "白色", "¥39.00"), ("HM-2001-BK", "黑色", "¥39.00"),
                ("HM-2001-BL", "蓝色", "¥42.00"))
    for i, row in enumerate(variants):
        for x, value in zip(variant_xs, row, strict=False):
            text(column, x + 3, 405 + 18 * i, value, 9)
    rules(column, variant_xs, [392 + 18 * i for i in range(5)])
    column.insert_image(pymupdf.Rect(40, 550, 240, 750), stream=photo((215, 215, 215), (30, 30, 30)),
                        keep_proportion=False)
    column.insert_image(pymupdf.Rect(440, 650, 540, 750), stream=photo((30, 30, 30), (90, 90, 90), 150, 150),
                        keep_proportion=False)
    text(column, 260, 570, "不粘煎锅", 14)
    for i, line in enumerate(("型号：HM-3008", "规格：28cm", "材质：铸铁", "价格：¥199.00")):
        text(column, 260, 592 + 18 * i, line)
    text(column, 520, 815, "第 2 页", 8)

    mixed = doc.new_page(width=595, height=842)
    mixed.insert_image(pymupdf.Rect(40, 20, 100, 40), stream=LOGO)
    text(mixed, 40, 80, "限时特惠", 22)
    text(mixed, 40, 110, "精选优质原材料，严格品控，每一件产品都经过多道工序检验。")
    text(mixed, 40, 126, "满 299 元包邮，欢迎批发采购。")
    mixed.insert_image(pymupdf.Rect(40, 150, 220, 330), stream=photo((220, 235, 240), (170, 210, 220)),
                       keep_proportion=False)
    for i, line in enumerate(("品名：玻璃保鲜盒", "型号：HM-4102", "规格：1000ml", "材质：高硼硅玻璃", "价格：¥59.90")):
        text(mixed, 240, 170 + 18 * i, line)
    mixed.insert_image(pymupdf.Rect(40, 350, 220, 530), stream=photo((240, 235, 220), (190, 160, 110)),
                       keep_proportion=False)
    for i, line in enumerate(("品名：竹纤维餐盘套装", "规格：20cm", "材质：竹纤维", "价格：¥45.00")):
        text(mixed, 240, 370 + 18 * i, line)
    text(mixed, 40, 570, "更多款式", 12)
    fragment_xs = [40, 150, 300, 420, 555]
    fragment = (("型号", "品名", "规格", "价格"), ("HM-5001", "硅胶折叠碗", "600ml", "¥29.90"),
                ("HM-5002", "硅胶折叠碗", "900ml", "¥35.90"), ("HM-5003", "木质砧板", "40×28cm", "电询"))
    for i, row in enumerate(fragment):
        for x, value in zip(fragment_xs, row, strict=False):
            text(mixed, x + 4, 594 + 20 * i, value)
    rules(mixed, fragment_xs, [580 + 20 * i for i in range(5)])
    text(mixed, 520, 815, "第 3 页", 8)
    save(doc, "hm02_zh_kitchen", "禾木家居 2026 厨房好物")


if __name__ == "__main__":
    outdoor_catalog()
    kitchen_catalog()
