"""What a page builder works with, and the furniture (logo, ornament, page mark) around its content."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pymupdf

from skuflow_cli.golden import vocabulary as words
from skuflow_cli.golden.blocks import Photographer
from skuflow_cli.golden.canvas import GREY, Canvas
from skuflow_cli.golden.plan import DocumentPlan, PagePlan
from skuflow_cli.golden.products import ProductLine
from skuflow_cli.golden.style import CatalogStyle
from skuflow_cli.golden.truth import PageTruth, SkuTruth

MARGIN = 40.0
SMALL_TEXT = 5.5
DENSE_TEXT = 6.5


@dataclass(frozen=True)
class Assets:
    """Pictures every page of a document shares (so they are stored once, like in a real catalog)."""

    logo: bytes
    ornament: bytes


@dataclass
class PageContext:
    canvas: Canvas
    plan: PagePlan
    document: DocumentPlan
    truth: PageTruth
    products: ProductLine
    photos: Photographer
    assets: Assets
    rng: random.Random
    area: pymupdf.Rect
    tiled: int = 0
    skus_made: int = 0

    @property
    def style(self) -> CatalogStyle:
        return self.document.style

    @property
    def size(self) -> float:
        """Body text size: tiny on small-text pages, small on dense ones, the catalog's own otherwise."""
        if "small_text" in self.plan.features:
            return SMALL_TEXT
        return DENSE_TEXT if self.plan.layout == "L4" else self.style.body_size

    def sku(self, *, with_model: bool = True) -> SkuTruth:
        return self._priced(self.products.sku(self.plan.section, with_model=with_model))

    def variants(self, count: int) -> list[SkuTruth]:
        return [self._priced(s) for s in self.products.variants(self.plan.section, count)]

    def tiles(self) -> int:
        """How many rows/columns of tiles the next photo is cut into (0: one piece): the first photo of a
        fragmented-image page always is, later ones sometimes."""
        if "fragmented_image" not in self.plan.features or (self.tiled and self.rng.random() < 0.7):
            return 0
        self.tiled += 1
        return self.rng.choice((3, 4))

    def _priced(self, sku: SkuTruth) -> SkuTruth:
        """On a page with unpriced SKUs the first SKU has no price and about a quarter of the others neither."""
        if "sku_without_price" in self.plan.features and (not self.skus_made or self.rng.random() < 0.25):
            sku.price = None
        self.skus_made += 1
        return sku


def plain_area(canvas: Canvas) -> pymupdf.Rect:
    """The content area of a page without header and footer."""
    return pymupdf.Rect(MARGIN, MARGIN, canvas.rect.width - MARGIN, canvas.rect.height - MARGIN)


def furnish(canvas: Canvas, style: CatalogStyle, assets: Assets, number: int) -> pymupdf.Rect:
    """Draw the header (logo, brand, ornament) and footer (ornament, page mark); returns the content area."""
    rect = canvas.rect
    canvas.picture(pymupdf.Rect(MARGIN, 18, MARGIN + 60, 39), assets.logo)
    brand = style.brand[1] if style.language == "en" else style.brand[0]
    canvas.text(MARGIN + 68, 33, brand, 9, GREY)
    canvas.picture(pymupdf.Rect(rect.width - MARGIN - 100, 25, rect.width - MARGIN, 31), assets.ornament)
    canvas.rule((MARGIN, 46), (rect.width - MARGIN, 46), 0.8, style.accent)
    canvas.picture(pymupdf.Rect(MARGIN, rect.height - 28, MARGIN + 100, rect.height - 22), assets.ornament)
    mark = words.PAGE_MARK[style.text_language].format(number)
    canvas.text(rect.width - MARGIN - canvas.width_of(mark, 8), rect.height - 22, mark, 8, GREY)
    return pymupdf.Rect(MARGIN, 58, rect.width - MARGIN, rect.height - 40)


def section_title(style: CatalogStyle, section: str) -> str:
    zh, en = words.SECTIONS[section][0]
    return {"zh": zh, "en": en}.get(style.language, f"{zh} {en}")


def heading(ctx: PageContext, text: str, size: float = 16) -> pymupdf.Rect:
    """A page title in the accent colour; returns the area below it."""
    ctx.canvas.fitted(ctx.area.x0, ctx.area.y0 + size, text, size, ctx.area.width, ctx.style.accent)
    return pymupdf.Rect(ctx.area.x0, ctx.area.y0 + size * 2, ctx.area.x1, ctx.area.y1)
