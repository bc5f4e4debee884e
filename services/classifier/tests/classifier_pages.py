"""Hand-built IR pages for the classifier tests (A4 portrait: 595 × 842 pt)."""

from skuflow_contracts.ir import ImageRegion, ParsedPage, TextBlock, TextLine
from skuflow_contracts.profile import profile_for

PROFILE = profile_for("v1")
WIDTH, HEIGHT = 595, 842


def stacked(i, x, y, *texts, width=200, leading=14, size=10.0):
    """A block of lines stacked top to bottom at (x, y)."""
    lines = [TextLine(bbox=(x, y + leading * n, x + width, y + leading * n + 12), text=t) for n, t in enumerate(texts)]
    return TextBlock(block_id=i, bbox=(x, y, x + width, y + leading * len(texts)), text="\n".join(texts),
                     lines=lines, font_size=size)


def row(i, y, cells, xs=(50, 150, 290, 430)):
    """A table row: one line per cell, side by side at the left edges ``xs``."""
    lines = [TextLine(bbox=(x, y, x + 80, y + 12), text=t) for x, t in zip(xs, cells, strict=False)]
    return TextBlock(block_id=i, bbox=(xs[0], y, xs[len(cells) - 1] + 80, y + 12), text="\n".join(cells),
                     lines=lines, font_size=10)


def image(i, box, px=700):
    return ImageRegion(image_id=f"img_{i}", bbox=box, width_px=px, height_px=px, content_hash=f"hash{i}")


def page(blocks=(), images=(), number=1):
    return ParsedPage(page=number, width=WIDTH, height=HEIGHT, parser_backend="pymupdf",
                      text_blocks=list(blocks), images=list(images))


def product_grid(rows=2, cols=2):
    """Pictured products in a grid, each with a labelled card under its photo."""
    blocks, images = [], []
    for r in range(rows):
        for c in range(cols):
            x, y = 40 + c * 265, 90 + r * 355
            n = len(blocks)
            images.append(image(n, (x, y, x + 220, y + 200)))
            blocks.append(stacked(n, x, y + 208, f"品名：杯子{n}", f"型号：SF-{n:04d}", "价格：¥12.50", width=220))
    return page(blocks, images)


def price_table(rows=8, top=100, pitch=26):
    header = row(0, top, ["型号", "品名", "规格", "价格"])
    body = [row(i, top + pitch * i, [f"SF-{i:04d}", "玻璃杯", "300ml", "¥8.00"]) for i in range(1, rows + 1)]
    return [header, *body]
