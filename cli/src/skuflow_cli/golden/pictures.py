"""Product photos, scenes, logos and ornaments, drawn as vector shapes and rendered to small JPEG/PNG.

Drawing on a scratch PDF page and rendering it keeps the pictures deterministic and dependency-free,
and a few flat shapes on a gradient compress to a few kilobytes, which keeps the committed set small.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import pymupdf

RGB = tuple[float, float, float]
JPEG_QUALITY = 70


@dataclass(frozen=True)
class Motif:
    """What a picture shows: a product shape (or a scene, or a close-up) in given colours."""

    shape: str
    background: tuple[RGB, RGB]
    body: RGB
    trim: RGB
    pattern: str


def product_motif(rng: random.Random, shape: str) -> Motif:
    light = tuple(rng.uniform(0.82, 0.98) for _ in range(3))
    return Motif(shape=shape, background=(light, tuple(c * rng.uniform(0.8, 0.95) for c in light)),
                 body=_colour(rng), trim=_colour(rng), pattern=rng.choice(("plain", "plain", "stripes", "dots")))


def close_up(motif: Motif) -> Motif:
    """The detail photo of a product: its surface, filling the frame."""
    return Motif("close_up", (motif.body, motif.trim), motif.body, motif.trim,
                 "dots" if motif.pattern == "dots" else "stripes")


def scene_motif(rng: random.Random) -> Motif:
    sky = tuple(rng.uniform(0.7, 0.95) for _ in range(3))
    return Motif("scene", (sky, tuple(c * 0.75 for c in sky)), _colour(rng), _colour(rng), "plain")


def jpeg(motif: Motif, width: int, height: int, seed: int) -> bytes:
    """The picture at ``width`` x ``height`` pixels."""
    with _drawn(motif, width, height, seed) as page:
        return page.get_pixmap(alpha=False).tobytes("jpeg", jpg_quality=JPEG_QUALITY)


def jpeg_tiles(motif: Motif, width: int, height: int, seed: int, grid: int) -> list[list[bytes]]:
    """The same picture cut into ``grid`` x ``grid`` separately stored tiles (rows of columns)."""
    with _drawn(motif, width, height, seed) as page:
        xs = [round(width * i / grid) for i in range(grid + 1)]
        ys = [round(height * i / grid) for i in range(grid + 1)]
        return [[page.get_pixmap(alpha=False, clip=pymupdf.Rect(xs[c], ys[r], xs[c + 1], ys[r + 1]))
                 .tobytes("jpeg", jpg_quality=JPEG_QUALITY) for c in range(grid)] for r in range(grid)]


def logo(word: str, accent: RGB) -> bytes:
    """A brand mark: a word on a coloured badge, PNG with sharp edges like a real logo."""
    doc = pymupdf.open()
    page = doc.new_page(width=160, height=56)
    page.draw_rect(pymupdf.Rect(2, 2, 158, 54), color=None, fill=accent, radius=0.25)
    size = min(22.0, 22.0 * 140 / pymupdf.get_text_length(word, fontname="hebo", fontsize=22))
    width = pymupdf.get_text_length(word, fontname="hebo", fontsize=size)
    page.insert_text(((160 - width) / 2, 28 + size * 0.35), word, fontname="hebo", fontsize=size, color=(1, 1, 1))
    return page.get_pixmap(alpha=False).tobytes("png")


def ornament(accent: RGB) -> bytes:
    """A thin strip of diamonds, the decoration repeated in headers and footers."""
    doc = pymupdf.open()
    page = doc.new_page(width=200, height=12)
    for x in range(6, 200, 16):
        page.draw_polyline([(x - 5, 6), (x, 1), (x + 5, 6), (x, 11), (x - 5, 6)], color=None, fill=accent)
    return page.get_pixmap(alpha=False).tobytes("png")


class _drawn:
    """A scratch page with the motif drawn on it, closed on exit."""

    def __init__(self, motif: Motif, width: int, height: int, seed: int) -> None:
        self._doc = pymupdf.open()
        self._page = self._doc.new_page(width=width, height=height)
        _draw(self._page, motif, random.Random(seed))

    def __enter__(self) -> pymupdf.Page:
        return self._page

    def __exit__(self, *_: object) -> None:
        self._doc.close()


def _colour(rng: random.Random) -> RGB:
    return tuple(rng.choice((0.1, 0.25, 0.45, 0.65, 0.85)) * rng.uniform(0.8, 1.0) for _ in range(3))


class _Pen:
    """Page-like drawing calls collected in one Shape: one content stream per picture, not one per shape."""

    def __init__(self, page: pymupdf.Page) -> None:
        self.shape = page.new_shape()
        self.rect = page.rect

    def draw_rect(self, rect: pymupdf.Rect, *, radius: float | None = None, **paint: object) -> None:
        self.shape.draw_rect(rect, radius=radius)
        self.shape.finish(**paint)

    def draw_oval(self, rect: pymupdf.Rect, **paint: object) -> None:
        self.shape.draw_oval(rect)
        self.shape.finish(**paint)

    def draw_circle(self, centre: tuple[float, float], radius: float, **paint: object) -> None:
        self.shape.draw_circle(centre, radius)
        self.shape.finish(**paint)

    def draw_line(self, start: tuple[float, float], end: tuple[float, float], **paint: object) -> None:
        self.shape.draw_line(start, end)
        self.shape.finish(**paint)

    def draw_polyline(self, points: list, **paint: object) -> None:
        self.shape.draw_polyline(points)
        self.shape.finish(**paint)


def _draw(page: pymupdf.Page, motif: Motif, rng: random.Random) -> None:
    pen = _Pen(page)
    _compose(pen, motif, rng)
    pen.shape.commit()


def _compose(pen: _Pen, motif: Motif, rng: random.Random) -> None:
    rect = pen.rect
    bands = 16
    top, bottom = motif.background
    for i in range(bands):
        t = i / (bands - 1)
        colour = tuple(a + (b - a) * t for a, b in zip(top, bottom, strict=True))
        band = pymupdf.Rect(0, rect.height * i / bands, rect.width, rect.height * (i + 1) / bands + 1)
        pen.draw_rect(band, color=None, fill=colour)
    side = min(rect.width, rect.height)
    x, y = _centre(rect)
    box = pymupdf.Rect(x - side * 0.35, y - side * 0.38, x + side * 0.35, y + side * 0.38)
    product = motif.shape not in ("scene", "close_up")
    if product:
        shadow = pymupdf.Rect(box.x0, box.y1 - side * 0.05, box.x1, box.y1 + side * 0.05)
        pen.draw_oval(shadow, color=None, fill=(0, 0, 0), fill_opacity=0.15)
    body = _SHAPES[motif.shape](pen, box, motif, rng)
    _pattern(pen, body, motif)
    if not product:
        return
    highlight = pymupdf.Rect(body.x0 + body.width * 0.12, body.y0 + body.height * 0.1,
                             body.x0 + body.width * 0.3, body.y0 + body.height * 0.5)
    pen.draw_oval(highlight, color=None, fill=(1, 1, 1), fill_opacity=0.3)


def _centre(rect: pymupdf.Rect) -> tuple[float, float]:
    return (rect.x0 + rect.x1) / 2, (rect.y0 + rect.y1) / 2


def _part(box: pymupdf.Rect, x0: float, y0: float, x1: float, y1: float) -> pymupdf.Rect:
    """A sub-rectangle of ``box`` given in fractions of its size."""
    return pymupdf.Rect(box.x0 + box.width * x0, box.y0 + box.height * y0,
                        box.x0 + box.width * x1, box.y0 + box.height * y1)


def _bottle(pen: _Pen, box: pymupdf.Rect, m: Motif, rng: random.Random) -> pymupdf.Rect:
    body = _part(box, 0.28, 0.22, 0.72, 1.0)
    pen.draw_rect(body, color=None, fill=m.body, radius=0.2)
    pen.draw_rect(_part(box, 0.36, 0.08, 0.64, 0.24), color=None, fill=m.body)
    pen.draw_rect(_part(box, 0.34, 0.0, 0.66, 0.1), color=None, fill=m.trim, radius=0.2)
    return body


def _cup(pen: _Pen, box: pymupdf.Rect, m: Motif, rng: random.Random) -> pymupdf.Rect:
    handle = _part(box, 0.6, 0.4, 0.95, 0.8)
    pen.draw_oval(handle, color=m.trim, width=box.width * 0.06)
    body = _part(box, 0.1, 0.25, 0.75, 1.0)
    pen.draw_rect(body, color=None, fill=m.body, radius=0.12)
    pen.draw_oval(_part(box, 0.1, 0.18, 0.75, 0.32), color=None, fill=m.trim)
    return body


def _pan(pen: _Pen, box: pymupdf.Rect, m: Motif, rng: random.Random) -> pymupdf.Rect:
    pen.draw_rect(_part(box, 0.62, 0.46, 1.0, 0.56), color=None, fill=m.trim, radius=0.4)
    body = _part(box, 0.0, 0.2, 0.68, 0.82)
    pen.draw_oval(body, color=None, fill=m.body)
    pen.draw_oval(_part(box, 0.08, 0.28, 0.6, 0.74), color=None, fill=tuple(c * 0.7 for c in m.body))
    return body


def _board(pen: _Pen, box: pymupdf.Rect, m: Motif, rng: random.Random) -> pymupdf.Rect:
    body = _part(box, 0.05, 0.15, 0.95, 0.9)
    pen.draw_rect(body, color=m.trim, fill=m.body, width=2, radius=0.08)
    pen.draw_circle(_centre(_part(box, 0.8, 0.25, 0.86, 0.31)), box.width * 0.03, color=None, fill=m.background[0])
    return body


def _box(pen: _Pen, box: pymupdf.Rect, m: Motif, rng: random.Random) -> pymupdf.Rect:
    front = _part(box, 0.05, 0.35, 0.75, 1.0)
    pen.draw_polyline([front.tl, (front.x0 + box.width * 0.2, box.y0 + box.height * 0.15),
                        (box.x1, box.y0 + box.height * 0.15), (front.x1, front.y0), front.tl],
                       color=None, fill=m.trim)
    pen.draw_polyline([front.tr, (box.x1, box.y0 + box.height * 0.15), (box.x1, box.y1 - box.height * 0.2),
                        front.br, front.tr], color=None, fill=tuple(c * 0.7 for c in m.body))
    pen.draw_rect(front, color=None, fill=m.body)
    return front


def _cushion(pen: _Pen, box: pymupdf.Rect, m: Motif, rng: random.Random) -> pymupdf.Rect:
    body = _part(box, 0.02, 0.12, 0.98, 0.92)
    pen.draw_rect(body, color=None, fill=m.body, radius=0.25)
    pen.draw_rect(_part(box, 0.1, 0.2, 0.9, 0.84), color=m.trim, width=1.5, dashes="[4 3] 0", radius=0.2)
    return body


def _lamp(pen: _Pen, box: pymupdf.Rect, m: Motif, rng: random.Random) -> pymupdf.Rect:
    pen.draw_oval(_part(box, 0.2, 0.9, 0.8, 1.0), color=None, fill=m.trim)
    pen.draw_line(_part(box, 0.5, 0.35, 0.5, 0.95).tl, _part(box, 0.5, 0.35, 0.5, 0.95).br, color=m.trim,
                   width=box.width * 0.04)
    shade = _part(box, 0.1, 0.0, 0.9, 0.4)
    pen.draw_polyline([(shade.x0 + shade.width * 0.25, shade.y0), (shade.x1 - shade.width * 0.25, shade.y0),
                        shade.br, shade.bl], closePath=True, color=None, fill=m.body)
    return shade


def _dumbbell(pen: _Pen, box: pymupdf.Rect, m: Motif, rng: random.Random) -> pymupdf.Rect:
    pen.draw_rect(_part(box, 0.1, 0.46, 0.9, 0.54), color=None, fill=m.trim)
    for x0 in (0.05, 0.17, 0.71, 0.83):
        pen.draw_rect(_part(box, x0, 0.25, x0 + 0.11, 0.75), color=None, fill=m.body, radius=0.2)
    return _part(box, 0.05, 0.25, 0.28, 0.75)


def _bag(pen: _Pen, box: pymupdf.Rect, m: Motif, rng: random.Random) -> pymupdf.Rect:
    handle = _part(box, 0.3, 0.0, 0.7, 0.4)
    pen.draw_oval(handle, color=m.trim, width=box.width * 0.05)
    body = _part(box, 0.1, 0.22, 0.9, 1.0)
    pen.draw_rect(body, color=None, fill=m.body, radius=0.15)
    pen.draw_rect(_part(box, 0.25, 0.6, 0.75, 0.9), color=m.trim, width=1.5, radius=0.1)
    return body


def _ball(pen: _Pen, box: pymupdf.Rect, m: Motif, rng: random.Random) -> pymupdf.Rect:
    body = _part(box, 0.08, 0.1, 0.92, 1.0)
    radius = min(body.width, body.height) / 2
    pen.draw_circle(_centre(body), radius, color=None, fill=m.body)
    for fraction in (0.7, 0.45, 0.2):
        pen.draw_circle(_centre(body), radius * fraction, color=m.trim, width=1.5)
    return body


def _close_up(pen: _Pen, box: pymupdf.Rect, m: Motif, rng: random.Random) -> pymupdf.Rect:
    pen.draw_circle(_centre(box), box.width * 0.3, color=m.trim, width=box.width * 0.05)
    return pymupdf.Rect(pen.rect)


def _scene(pen: _Pen, box: pymupdf.Rect, m: Motif, rng: random.Random) -> pymupdf.Rect:
    rect = pen.rect
    floor = pymupdf.Rect(0, rect.height * 0.68, rect.width, rect.height)
    pen.draw_rect(floor, color=None, fill=tuple(c * 0.8 for c in m.trim))
    pen.draw_circle((rect.width * rng.uniform(0.6, 0.9), rect.height * 0.2), rect.height * 0.08, color=None,
                     fill=(1, 0.95, 0.8))
    for _ in range(rng.randint(2, 4)):
        w, h = rect.width * rng.uniform(0.1, 0.25), rect.height * rng.uniform(0.15, 0.4)
        x = rng.uniform(0, rect.width - w)
        pen.draw_rect(pymupdf.Rect(x, floor.y0 - h, x + w, floor.y0 + 4), color=None, fill=_colour(rng),
                       radius=0.1)
    return pymupdf.Rect(0, 0, rect.width * 0.5, rect.height * 0.5)


_SHAPES: dict[str, Callable[[_Pen, pymupdf.Rect, Motif, random.Random], pymupdf.Rect]] = {
    "bottle": _bottle, "cup": _cup, "pan": _pan, "board": _board, "box": _box, "cushion": _cushion,
    "lamp": _lamp, "dumbbell": _dumbbell, "bag": _bag, "ball": _ball, "close_up": _close_up, "scene": _scene,
}


def _pattern(pen: _Pen, body: pymupdf.Rect, m: Motif) -> None:
    inner = pymupdf.Rect(body.x0 + body.width * 0.15, body.y0 + body.height * 0.15,
                         body.x1 - body.width * 0.15, body.y1 - body.height * 0.15)
    step = max(inner.width, inner.height) / 7
    if m.pattern == "stripes":
        y = inner.y0
        while y < inner.y1:
            pen.draw_line((inner.x0, y), (inner.x1, y), color=m.trim, width=step * 0.35)
            y += step
    elif m.pattern == "dots":
        dot = step * 0.18
        for row in range(int(inner.height // step) + 1):
            for col in range(int(inner.width // step) + 1):
                x, y = inner.x0 + col * step, inner.y0 + row * step
                pen.draw_rect(pymupdf.Rect(x - dot, y - dot, x + dot, y + dot), color=None, fill=m.trim)
