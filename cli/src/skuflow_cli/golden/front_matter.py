"""Pages without SKUs (type D): cover, table of contents, blank page, brand story.

A brand story may mention a product with its model and price; whether that is a SKU of the page is a
matter of opinion, so such a page is marked uncertain and left out of scoring.
"""

from __future__ import annotations

import pymupdf

from skuflow_cli.golden import pictures
from skuflow_cli.golden import vocabulary as words
from skuflow_cli.golden.canvas import GREY
from skuflow_cli.golden.context import PageContext, heading, section_title

STORY_TEXT = 11.0


def cover(ctx: PageContext) -> None:
    area, style, canvas = ctx.area, ctx.style, ctx.canvas
    canvas.picture(pymupdf.Rect(area.x0, area.y0, area.x0 + 120, area.y0 + 42), ctx.assets.logo)
    brand = {"zh": style.brand[0], "en": style.brand[1]}.get(style.language, " ".join(style.brand))
    canvas.text(area.x0 + 132, area.y0 + 28, brand, 16, style.accent)
    top = area.y0 + area.height * 0.2
    canvas.fitted(area.x0, top, style.title, 30, area.width, style.accent)
    canvas.text(area.x0, top + 30, ctx.rng.choice(words.SUBTITLES[style.text_language]), 14, GREY)
    hero = pymupdf.Rect(area.x0, top + 50, area.x1, min(area.y1 - 80, top + 50 + area.width * 0.62))
    ctx.photos.place(canvas, hero, pictures.scene_motif(ctx.rng))
    canvas.lines(area.x0, area.y1 - 50, list(words.CONTACTS[style.text_language]), 9, area.width, color=GREY)


def contents(ctx: PageContext) -> None:
    """A table of contents with dot leaders: each section, and the brand story, with its first page."""
    area = heading(ctx, words.CONTENTS_TITLE[ctx.style.text_language], size=22)
    entries: dict[str, int] = {}
    for number, page in enumerate(ctx.document.pages, start=1):
        if page.kind == "story":
            entries.setdefault(words.STORY_TITLE[ctx.style.text_language], number)
        elif page.section:
            entries.setdefault(section_title(ctx.style, page.section), number)
    size, y = 12.0, area.y0 + 20
    for title, number in entries.items():
        mark = str(number)
        left = ctx.canvas.text(area.x0, y, title, size)
        right = area.x1 - ctx.canvas.width_of(mark, size)
        dot = ctx.canvas.width_of(".", size)
        ctx.canvas.text(area.x0 + left + 6, y, "." * int((right - area.x0 - left - 12) / dot), size, GREY)
        ctx.canvas.text(right, y, mark, size)
        y += size * 2.4


def blank(ctx: PageContext) -> None:
    """Nothing at all: the separator page some catalogs have between sections."""


def story(ctx: PageContext) -> None:
    language = ctx.style.text_language
    area = heading(ctx, words.STORY_TITLE[language], size=22)
    y = area.y0 + 10
    paragraphs = list(words.STORY[language])
    if ctx.rng.random() < 0.5:
        picture = pymupdf.Rect(area.x0, y, area.x1, y + area.width * 0.4)
        y = ctx.photos.place(ctx.canvas, picture, pictures.scene_motif(ctx.rng)).y1 + 16
    if "uncertain_page" in ctx.plan.features:
        paragraphs.insert(2, _mention(ctx))
    for text in paragraphs:
        y = ctx.canvas.paragraph(pymupdf.Rect(area.x0, y, area.x1, area.y1), text, STORY_TEXT, 1.7) + 10


def _mention(ctx: PageContext) -> str:
    """A product named in passing: recorded in the truth, and the page marked uncertain."""
    sku = ctx.products.sku(ctx.style.sections[0])
    fields = ("model", "product_name", "size", "material", "price")
    ctx.truth.add(sku.shown(fields))
    return words.STORY_MENTION[ctx.style.text_language].format(
        model=sku.model, name=sku.product_name, size=sku.size, material=sku.material,
        price=ctx.style.price_text(sku.price, ctx.rng))
