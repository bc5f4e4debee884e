"""Which way up a scan reads: a page photographed or scanned sideways has its lines standing on end.

Lines standing on end are also how vertical Chinese is set (menus, price boards), so only lines of
letters and digits, which no catalog sets on end, count: when most stand, the page is read a quarter
turn either way, and the recognizer decides which. Read a quarter turn the wrong way (upside down),
letters come out as nonsense of low confidence, while the right turn reads the lines lying down,
confidently. A turn is taken only when its reading of lying lines outweighs the page as it stands by
``MARGIN``. A page of Chinese scanned on its side is not told from vertical Chinese, and stays as it
stands.
"""

from __future__ import annotations

import unicodedata

from skuflow_parser.domain.corners import Corners, bounds

MIN_CHARS = 3  # a line this long says which way it runs
SIDEWAYS_SHARE = 0.5  # of such lines standing on end: the page may be sideways
STANDING = 1.5  # height ÷ width of a line standing on end
MARGIN = 1.5  # how much more a turned reading must read for the page to be turned


def _size(corners: Corners) -> tuple[float, float]:
    x0, y0, x1, y1 = bounds(corners)
    return x1 - x0, y1 - y0


def _wide(text: str) -> bool:
    """Mostly Chinese or Japanese characters (full-width), which may be set on end."""
    return sum(1 for ch in text if unicodedata.east_asian_width(ch) in "WF") * 2 >= len(text)


def standing_share(lines: list[tuple[Corners, str]]) -> float:
    """The share of the page's lines of letters and digits, ``MIN_CHARS`` or more, that stand on end."""
    sizes = [_size(corners) for corners, text in lines if len(text.strip()) >= MIN_CHARS and not _wide(text)]
    return sum(1 for width, height in sizes if height >= STANDING * width) / len(sizes) if sizes else 0.0


def lying_weight(lines: list[tuple[Corners, str, float]]) -> float:
    """Characters read on lines lying down, each counted by the recognizer's confidence."""
    return sum(confidence * len(text.strip()) for corners, text, confidence in lines
               if (size := _size(corners))[0] >= size[1])


def better_turn(standing: float, turned: dict[int, float]) -> int:
    """The quarter turn (degrees clockwise) whose lying weight beats the page as it stands by
    ``MARGIN``, else 0."""
    turn, weight = max(turned.items(), key=lambda item: item[1], default=(0, 0.0))
    return turn if weight > MARGIN * standing else 0
