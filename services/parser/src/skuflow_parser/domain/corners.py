"""A detected box as OCR engines report it: its four corners in pixels, and the upright box around them."""

from __future__ import annotations

Corners = list[list[float]]  # top-left, top-right, bottom-right, bottom-left

Bounds = tuple[float, float, float, float]


def bounds(corners: Corners) -> Bounds:
    """The smallest upright box holding the corners: x0, y0, x1, y1."""
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return min(xs), min(ys), max(xs), max(ys)


def corners_of(box: Bounds) -> Corners:
    """An upright box as corners, in the engines' order."""
    x0, y0, x1, y1 = box
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
