"""A scan's skew, read from its own text lines, and the lines turned straight.

The OCR detector finds each text line as a turned quadrilateral, so a page scanned a degree or two
askew still yields whole lines; but a row of a wide table then climbs or falls by more than a line's
height across the page, and the columns lean. The lines' common angle is the page's skew; turning
every box back about the page's centre puts rows level and columns upright again, with no second
OCR pass (the recognizer already read each line along its own angle).
"""

from __future__ import annotations

import math
import statistics

from skuflow_parser.domain.corners import Corners

LONG_LINE = 2.5  # width ÷ height of a line whose top edge says the page's angle (a word of 3+ letters)
MIN_LINES = 3  # lines that must agree before a page is called skewed
MIN_SKEW = 0.2  # degrees: less than this is left alone (a pixel or two across a page)
MAX_SKEW = 10.0  # degrees: more is no scanner's skew but text set at an angle, or a sideways page


def _edge(corners: Corners) -> tuple[float, float, float]:
    """The top edge's angle (degrees, y down), its length and the left edge's length."""
    (x0, y0), (x1, y1), _, (x3, y3) = corners[:4]
    return math.degrees(math.atan2(y1 - y0, x1 - x0)), math.hypot(x1 - x0, y1 - y0), math.hypot(x3 - x0, y3 - y0)


def skew_degrees(lines: list[Corners]) -> float:
    """The page's skew from its long lines (positive: text falls to the right), 0 when it is level or
    cannot be told."""
    angles = [angle for angle, width, height in map(_edge, lines)
              if height > 0 and width >= LONG_LINE * height and abs(angle) <= MAX_SKEW]
    if len(angles) < MIN_LINES:
        return 0.0
    skew = statistics.median(angles)
    return skew if abs(skew) >= MIN_SKEW else 0.0


def turned(corners: Corners, degrees: float, centre: tuple[float, float]) -> Corners:
    """``corners`` turned by ``-degrees`` about ``centre``: a line leaning by the skew comes out level."""
    if not degrees:
        return corners
    cos, sin = math.cos(math.radians(-degrees)), math.sin(math.radians(-degrees))
    cx, cy = centre
    return [[cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos] for x, y in corners]
