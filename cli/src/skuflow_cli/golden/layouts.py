"""Product pages: price tables (A), mixed pages (B) and picture-and-text pages (C) in layouts L1-L4.

Every builder draws into ``ctx.area`` and records each printed SKU (with the fields it printed and,
when it has exactly one product photo on the page, that photo's bbox) in ``ctx.truth``.
"""

from __future__ import annotations

import pymupdf

from skuflow_cli.golden import pictures
from skuflow_cli.golden import vocabulary as words
from skuflow_cli.golden.blocks import (
    block_fields,
    column_edges,
    columns,
    fitting_size,
    product_text,
    table,
    table_row,
)
from skuflow_cli.golden.context import PageContext, heading, section_title

GRID_FIELDS: dict[int, tuple[str, ...] | None] = {2: None, 3: ("product_name", "model", "size", "price"),
                                                  4: ("product_name", "model", "price")}
GRID_TEXT = {2: 10.0, 3: 8.0, 4: 6.5}
SHARED_BY_VARIANTS = ("product_name", "size", "material")
VARIANT_COLUMNS = ("model", "color", "price")
FRAGMENT_FIELDS = ("model", "product_name", "price")
THUMBNAIL_ROW = 34.0


def single_column(ctx: PageContext) -> None:
    """L1: one product per row, photo left, text right."""
    area = heading(ctx, section_title(ctx.style, ctx.plan.section))
    rows = ctx.rng.choice((3, 4, 4, 5))
    height = area.height / rows
    for i, kind in enumerate(_block_kinds(ctx, rows)):
        top = area.y0 + i * height
        if i:
            ctx.canvas.rule((area.x0, top - 5), (area.x1, top - 5))
        product_block(ctx, pymupdf.Rect(area.x0, top, area.x1, top + height - 10), kind)


def two_columns(ctx: PageContext) -> None:
    """L3: two independent columns of product blocks whose rows do not line up."""
    area = heading(ctx, section_title(ctx.style, ctx.plan.section))
    gap = 18.0
    width = (area.width - gap) / 2
    counts = ctx.rng.choice(((3, 4), (4, 3), (3, 2), (2, 3)))
    kinds = _block_kinds(ctx, sum(counts))
    for column, count in enumerate(counts):
        x0 = area.x0 + column * (width + gap)
        height = area.height / count
        for row in range(count):
            top = area.y0 + row * height
            product_block(ctx, pymupdf.Rect(x0, top, x0 + width, top + height - 10), kinds.pop(0))
    middle = area.x0 + width + gap / 2
    ctx.canvas.rule((middle, area.y0), (middle, area.y1))


def grid(ctx: PageContext) -> None:
    """L2: an n x n grid of cells, photo above text; the smaller the cells, the fewer fields."""
    area = heading(ctx, section_title(ctx.style, ctx.plan.section))
    n = ctx.plan.grid
    _cells(ctx, area, n, n, block_fields(ctx.style, GRID_FIELDS[n]), min(ctx.size, GRID_TEXT[n]),
           gap=14.0 if n < 4 else 8.0)


def dense(ctx: PageContext) -> None:
    """L4: many small products with tiny photos and three lines of small text."""
    area = heading(ctx, section_title(ctx.style, ctx.plan.section), size=12)
    across, down = max(5, int(area.width // 84)), max(5, int(area.height // 104))
    _cells(ctx, area, down, across, block_fields(ctx.style, GRID_FIELDS[4]), ctx.size, gap=6.0)


def table_page(ctx: PageContext) -> None:
    """A: a price table; part k of a table running over several pages repeats its header or not."""
    part, parts = ctx.plan.table_part
    area = ctx.area
    if part == 1:
        area = heading(ctx, section_title(ctx.style, ctx.plan.section))
    header = part == 1 or "cross_page_table:repeated_header" in ctx.plan.features
    if part > 1 and header:
        ctx.canvas.text(area.x0, area.y0 + 8, words.CONTINUED[ctx.style.text_language], 8)
        area = pymupdf.Rect(area.x0, area.y0 + 14, area.x1, area.y1)
    thumbnails = "table_thumbnails" in ctx.plan.features
    cols = columns(ctx.style, ctx.style.table_order,
                   picture_label=words.PICTURE_LABEL[ctx.style.text_language] if thumbnails else None)
    size = ctx.size
    row_height = THUMBNAIL_ROW if thumbnails else size * (1.7 if ctx.plan.layout == "L4" else 2.1)
    capacity = int((area.height - (row_height if header else 0) - 24) // row_height)
    count = capacity if part < parts else ctx.rng.randint(max(3, capacity // 2), capacity)
    skus = [ctx.sku() for _ in range(count)]
    rows = table(ctx.canvas, ctx.style, area, cols, [table_row(ctx.style, s, cols, ctx.rng) for s in skus], size,
                 header=header, row_height=row_height)
    picture_right = column_edges(area, cols)[1]
    for sku, row in zip(skus, rows, strict=True):
        photo = None
        if thumbnails:
            side = min(row.height - 6, picture_right - row.x0 - 6)
            photo = ctx.photos.product(ctx.canvas, pymupdf.Rect(row.x0 + 3, row.y0 + 3, row.x0 + 3 + side,
                                                                row.y0 + 3 + side), ctx.products.motif(sku))[0]
        ctx.truth.add(sku.shown(ctx.style.table_order), photo)
    if part == parts:
        note = ctx.rng.choice(words.TABLE_NOTES[ctx.style.text_language])
        ctx.canvas.text(area.x0, rows[-1].y1 + 16, note, 8)


def mixed_page(ctx: PageContext) -> None:
    """B: marketing text, a few product blocks and a table fragment, in one column (L1) or two (L3)."""
    area, language = ctx.area, ctx.style.text_language
    if ctx.plan.layout == "L1":
        y = _headline(ctx, area)
        y = ctx.canvas.paragraph(pymupdf.Rect(area.x0, y, area.x1, y + 48), ctx.rng.choice(words.MARKETING[language]),
                                 ctx.size) + 8
        height = min(150.0, (area.y1 - y) / 3.2)
        for i in range(2):
            product_block(ctx, pymupdf.Rect(area.x0, y, area.x1, y + height), _mixed_kind(ctx, i))
            y += height + 10
        _table_fragment(ctx, pymupdf.Rect(area.x0, y, area.x1, area.y1), ctx.style.table_order)
        return
    left = pymupdf.Rect(area.x0, area.y0, area.x0 + area.width * 0.44, area.y1)
    right = pymupdf.Rect(left.x1 + 16, area.y0, area.x1, area.y1)
    y = _headline(ctx, left)
    for text in ctx.rng.sample(words.MARKETING[language], 2):
        y = ctx.canvas.paragraph(pymupdf.Rect(left.x0, y, left.x1, y + 80), text, ctx.size) + 6
    _table_fragment(ctx, pymupdf.Rect(left.x0, y + 6, left.x1, left.y1), FRAGMENT_FIELDS)
    count = 3
    height = right.height / count
    for i in range(count):
        top = right.y0 + i * height
        product_block(ctx, pymupdf.Rect(right.x0, top, right.x1, top + height - 12), _mixed_kind(ctx, i))


def product_block(ctx: PageContext, rect: pymupdf.Rect, kind: str = "plain") -> None:
    """Photo on the left, text on the right. ``kind``: plain, variants (a colour table under one photo),
    multi_image (main photo plus a detail photo, so the SKU has no single image), or no_model."""
    side = min(rect.height, rect.width * 0.38)
    photo_rect = pymupdf.Rect(rect.x0, rect.y0, rect.x0 + side, rect.y0 + side)
    text_rect = pymupdf.Rect(photo_rect.x1 + 12, rect.y0, rect.x1, rect.y1)
    if kind == "variants":
        _variant_block(ctx, photo_rect, text_rect)
        return
    sku = ctx.sku(with_model=kind != "no_model")
    multi_image = kind == "multi_image"
    if multi_image:
        detail = side * 0.5
        text_rect.x1 -= detail + 8
        detail_rect = pymupdf.Rect(rect.x1 - detail, photo_rect.y1 - detail, rect.x1, photo_rect.y1)
    photo, motif = ctx.photos.product(ctx.canvas, photo_rect, ctx.products.motif(sku),
                                      tiles=0 if multi_image else ctx.tiles())
    if multi_image:
        ctx.photos.place(ctx.canvas, detail_rect, pictures.close_up(motif))
    fields = block_fields(ctx.style)
    size = fitting_size(ctx.size, len(fields) + 1.5, text_rect.height)
    product_text(ctx.canvas, ctx.style, sku, fields, text_rect, size, ctx.rng)
    ctx.truth.add(sku.shown(fields), None if multi_image else photo)


def _variant_block(ctx: PageContext, photo_rect: pymupdf.Rect, text_rect: pymupdf.Rect) -> None:
    count = ctx.rng.randint(3, 4)
    skus = ctx.variants(count)
    photo, _ = ctx.photos.product(ctx.canvas, photo_rect, ctx.products.motif(skus[0]), tiles=ctx.tiles())
    shared = block_fields(ctx.style, SHARED_BY_VARIANTS)
    size = fitting_size(ctx.size, len(shared) + 1.5 + (count + 1) * 1.5, text_rect.height)
    y = product_text(ctx.canvas, ctx.style, skus[0], shared, text_rect, size, ctx.rng)
    cols = columns(ctx.style, VARIANT_COLUMNS)
    table(ctx.canvas, ctx.style, pymupdf.Rect(text_rect.x0, y + 2, text_rect.x1, text_rect.y1), cols,
          [table_row(ctx.style, s, cols, ctx.rng) for s in skus], size, header=True, row_height=size * 1.9)
    for sku in skus:
        ctx.truth.add(sku.shown(shared + VARIANT_COLUMNS), photo)


def _cells(ctx: PageContext, area: pymupdf.Rect, rows: int, cols: int, fields: tuple[str, ...], size: float,
           gap: float) -> None:
    """A regular grid of product cells: photo on top, centred, and the attribute lines under it."""
    width, height = (area.width - gap * (cols - 1)) / cols, (area.height - gap * (rows - 1)) / rows
    text_height = (len(fields) + 0.6) * size * 1.4
    side = max(12.0, min(width, height - text_height - 4))
    for r in range(rows):
        for c in range(cols):
            x0, y0 = area.x0 + c * (width + gap), area.y0 + r * (height + gap)
            sku = ctx.sku()
            photo_rect = pymupdf.Rect(x0 + (width - side) / 2, y0, x0 + (width + side) / 2, y0 + side)
            photo, _ = ctx.photos.product(ctx.canvas, photo_rect, ctx.products.motif(sku), tiles=ctx.tiles())
            text = pymupdf.Rect(x0, photo.y1 + 4, x0 + width, y0 + height)
            product_text(ctx.canvas, ctx.style, sku, fields, text, size, ctx.rng)
            ctx.truth.add(sku.shown(fields), photo)


def _block_kinds(ctx: PageContext, count: int) -> list[str]:
    """Plain blocks, with one variants block and one multi-image block where the page plan asks for them."""
    kinds = ["plain"] * count
    special = [k for k, feature in (("variants", "shared_image_variants"), ("multi_image", "multi_image_sku"))
               if feature in ctx.plan.features]
    for kind, index in zip(special, ctx.rng.sample(range(count), len(special)), strict=True):
        kinds[index] = kind
    return kinds


def _mixed_kind(ctx: PageContext, index: int) -> str:
    return "no_model" if index == 1 and "sku_without_model" in ctx.plan.features else "plain"


def _headline(ctx: PageContext, rect: pymupdf.Rect) -> float:
    text = ctx.rng.choice(words.HEADLINES[ctx.style.text_language])
    ctx.canvas.fitted(rect.x0, rect.y0 + 22, text, 22, rect.width, ctx.style.accent)
    return rect.y0 + 34


def _table_fragment(ctx: PageContext, rect: pymupdf.Rect, fields: tuple[str, ...]) -> None:
    """A few rows of a price table, as mixed pages often carry."""
    size = ctx.size
    cols = columns(ctx.style, fields)
    count = min(ctx.rng.randint(3, 5), int((rect.height - size * 4.1) // (size * 2.0)))
    if count < 1:
        return
    skus = [ctx.sku() for _ in range(count)]
    table(ctx.canvas, ctx.style, rect, cols, [table_row(ctx.style, s, cols, ctx.rng) for s in skus], size,
          header=True)
    for sku in skus:
        ctx.truth.add(sku.shown(fields))

