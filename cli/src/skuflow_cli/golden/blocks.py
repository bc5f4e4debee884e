"""The pieces every layout is made of: product photos, labelled attribute text, tables.

Each piece draws and returns where it drew, so the layout can record the truth (bboxes) as it goes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pymupdf

from skuflow_cli.golden import pictures
from skuflow_cli.golden.canvas import Canvas, fit
from skuflow_cli.golden.style import CatalogStyle
from skuflow_cli.golden.truth import SkuTruth

PIXELS_PER_POINT = 2.5
MIN_PIXELS, MAX_PIXELS = 96, 400
ZEBRA = (0.93, 0.93, 0.93)


class Photographer:
    """Makes a new product photo for every product, sized for the box it goes into."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def product(self, canvas: Canvas, rect: pymupdf.Rect, shape: str, *, tiles: int = 0
                ) -> tuple[pymupdf.Rect, pictures.Motif]:
        """Place a product photo filling ``rect``; with ``tiles``, as that many rows and columns of pieces."""
        motif = pictures.product_motif(self._rng, shape)
        if tiles:
            return self._tiled(canvas, rect, motif, tiles), motif
        return self.place(canvas, rect, motif), motif

    def place(self, canvas: Canvas, rect: pymupdf.Rect, motif: pictures.Motif) -> pymupdf.Rect:
        width, height = _pixels(rect)
        return canvas.picture(rect, pictures.jpeg(motif, width, height, self._rng.randrange(1 << 30)))

    def _tiled(self, canvas: Canvas, rect: pymupdf.Rect, motif: pictures.Motif, grid: int) -> pymupdf.Rect:
        width, height = _pixels(rect)
        rows = pictures.jpeg_tiles(motif, width, height, self._rng.randrange(1 << 30), grid)
        for r, row in enumerate(rows):
            for c, tile in enumerate(row):
                piece = pymupdf.Rect(rect.x0 + rect.width * c / grid, rect.y0 + rect.height * r / grid,
                                     rect.x0 + rect.width * (c + 1) / grid, rect.y0 + rect.height * (r + 1) / grid)
                canvas.picture(piece, tile)
        return pymupdf.Rect(rect)


def _pixels(rect: pymupdf.Rect) -> tuple[int, int]:
    """About 180 dpi, but never fewer than MIN_PIXELS on the short edge nor more than MAX_PIXELS on the long."""
    scale = max(PIXELS_PER_POINT, MIN_PIXELS / min(rect.width, rect.height))
    scale = min(scale, MAX_PIXELS / max(rect.width, rect.height))
    return max(8, round(rect.width * scale)), max(8, round(rect.height * scale))


def field_value(style: CatalogStyle, sku: SkuTruth, field: str, rng: random.Random) -> str:
    if field == "price":
        return style.price_text(sku.price, rng)
    return getattr(sku, field) or ""


def attribute_lines(style: CatalogStyle, sku: SkuTruth, fields: tuple[str, ...], rng: random.Random) -> list[str]:
    """``label：value`` lines in the catalog's order; an unpriced SKU may simply have no price line."""
    lines = []
    for field in fields:
        value = field_value(style, sku, field, rng)
        if value and not (field == "price" and sku.price is None and rng.random() < 0.5):
            lines.append(style.line(field, value))
    return lines


def product_text(canvas: Canvas, style: CatalogStyle, sku: SkuTruth, fields: tuple[str, ...], rect: pymupdf.Rect,
                 size: float, rng: random.Random) -> float:
    """A product's name (as a heading or a labelled line) and attributes in ``rect``; returns the y below."""
    top = rect.y0
    if style.name_as_title:
        canvas.fitted(rect.x0, top + size * 1.2, sku.product_name, size * 1.2, rect.width, style.accent)
        top += size * 1.7
        fields = tuple(f for f in fields if f != "product_name")
    return canvas.lines(rect.x0, top, attribute_lines(style, sku, fields, rng), size, rect.width)


def block_fields(style: CatalogStyle, allowed: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The fields a product block prints, in the catalog's order, limited to what the space allows."""
    return tuple(f for f in style.block_order if allowed is None or f in allowed)


@dataclass(frozen=True)
class Column:
    field: str
    header: str
    share: float


COLUMN_SHARES = {"model": 1.1, "product_name": 1.6, "size": 1.0, "material": 1.1, "color": 0.7, "price": 0.95,
                 "picture": 0.6}


def columns(style: CatalogStyle, fields: tuple[str, ...], *, picture_label: str | None = None) -> list[Column]:
    """Table columns with fixed shares of the width, so a table keeps its columns across pages."""
    picture = [Column("picture", picture_label, COLUMN_SHARES["picture"])] if picture_label else []
    return picture + [Column(f, style.column_label(f), COLUMN_SHARES[f]) for f in fields]


def table(canvas: Canvas, style: CatalogStyle, rect: pymupdf.Rect, cols: list[Column], rows: list[list[str]],
          size: float, *, header: bool, row_height: float | None = None) -> list[pymupdf.Rect]:
    """Draw a table at the top of ``rect`` in the catalog's rule style; returns each body row's rect."""
    row_height = row_height or size * 2.0
    xs = column_edges(rect, cols)
    y = rect.y0
    body: list[pymupdf.Rect] = []
    lines = ([[c.header for c in cols]] if header else []) + rows
    for index, cells in enumerate(lines):
        row = pymupdf.Rect(rect.x0, y, rect.x1, y + row_height)
        is_header = header and index == 0
        _row_background(canvas, style, row, is_header, index)
        for col, cell, x0, x1 in zip(cols, cells, xs[:-1], xs[1:], strict=True):
            if col.field != "picture" or is_header:
                canvas.text(x0 + 3, row.y0 + (row_height + size * 0.7) / 2, cell, fit(cell, size, x1 - x0 - 6))
        if not is_header:
            body.append(row)
        y += row_height
    _rules(canvas, style, pymupdf.Rect(rect.x0, rect.y0, rect.x1, y), xs, row_height)
    return body


def column_edges(rect: pymupdf.Rect, cols: list[Column]) -> list[float]:
    total = sum(c.share for c in cols)
    edges = [rect.x0]
    for col in cols:
        edges.append(edges[-1] + rect.width * col.share / total)
    return edges


def fitting_size(size: float, lines: float, height: float, leading: float = 1.4) -> float:
    """The text size (at most ``size``) at which ``lines`` lines fit ``height``."""
    return min(size, height / (lines * leading))


def _row_background(canvas: Canvas, style: CatalogStyle, row: pymupdf.Rect, is_header: bool, index: int) -> None:
    if is_header and style.table_rules != "none":
        canvas.box(row, fill=tuple(0.75 + 0.25 * c for c in style.accent))
    elif style.table_rules == "zebra" and index % 2 == 0:
        canvas.box(row, fill=ZEBRA)


def _rules(canvas: Canvas, style: CatalogStyle, rect: pymupdf.Rect, xs: list[float], row_height: float) -> None:
    if style.table_rules not in ("grid", "rows"):
        return
    y = rect.y0
    while y <= rect.y1 + 0.01:
        canvas.rule((rect.x0, y), (rect.x1, y))
        y += row_height
    if style.table_rules == "grid":
        for x in xs:
            canvas.rule((x, rect.y0), (x, rect.y1))


def table_row(style: CatalogStyle, sku: SkuTruth, cols: list[Column], rng: random.Random) -> list[str]:
    return ["" if c.field == "picture" else field_value(style, sku, c.field, rng) for c in cols]
