"""Which way up a scan reads: a page photographed or scanned sideways has its lines standing on end,
and a menu or price board set in vertical Chinese has its text in columns.

Sideways. Lines standing on end are also how vertical Chinese is set, so only lines of letters and
digits, which no catalog sets on end, count: when most stand, the page is read a quarter turn either
way, and the recognizer decides which. Read a quarter turn the wrong way (upside down), letters come
out as nonsense of low confidence, while the right turn reads the lines lying down, confidently. A
turn is taken only when its reading of lying lines outweighs the page as it stands by ``MARGIN``.

Vertical Chinese. Read as it stands, the detector joins the characters of neighbouring columns into
lines across them ('湯麵湯麵湯麵', '元元元元'): dish names that end alike stand side by side, so equal
characters meet far more often than in any line of real text. When they do (``ACROSS_COLUMNS``), or
when most Chinese lines stand on end, the page is read again turned a quarter counter-clockwise: each
column lies as a line, read top to bottom, with the price printed at its foot at the line's end, as a
price list reads. The turn is taken when that reading's Chinese outweighs the page as it stands by
``MARGIN``, a character equal to its neighbour counting against its line. A Chinese page photographed
on its side is turned as a sideways page where its figures stand ('15元'); where its names are
letter-spaced, each way is read by rows before the turns are weighed (``ocr_backend``), since the
detector reads spread names as columns whichever way up the page is. Where its figures lie too, it is
not told from vertical Chinese (its rows of dishes stand as columns): it stays as it stands unless the
reading down its columns wins.
"""

from __future__ import annotations

import unicodedata
from itertools import pairwise

from skuflow_parser.domain.corners import Corners, bounds

MIN_CHARS = 3  # a line this long says which way it runs
SIDEWAYS_SHARE = 0.5  # of such lines standing on end: the page may be sideways
STANDING = 1.5  # height ÷ width of a line standing on end
MARGIN = 1.5  # how much more a turned reading must read for the page to be turned
KEEPS = 0.75  # of what the page read as it stands, the share a reading down its columns must keep
ACROSS_COLUMNS = 0.1  # of a reading's neighbouring Chinese characters, the share equal that says its lines
# may run across columns (the real set's horizontal Chinese scans: 0.00-0.03, a few tables of repeated
# words up to 0.21, whose turned reading then reads less; its vertical boards and menus 0.23-0.40)


def _size(corners: Corners) -> tuple[float, float]:
    x0, y0, x1, y1 = bounds(corners)
    return x1 - x0, y1 - y0


def wide_chars(text: str) -> list[str]:
    """The full-width characters of a line (Chinese, Japanese), in order."""
    return [ch for ch in text if unicodedata.east_asian_width(ch) in "WF"]


def _wide(text: str) -> bool:
    """Mostly Chinese or Japanese characters (full-width), which may be set on end."""
    return len(wide_chars(text)) * 2 >= len(text)


def stands(corners: Corners) -> bool:
    """A line standing on end: ``STANDING`` times as tall as it is wide."""
    width, height = _size(corners)
    return height >= STANDING * width


def _standing(lines: list[tuple[Corners, str]], chinese: bool) -> float:
    counted = [corners for corners, text in lines if len(text.strip()) >= MIN_CHARS and _wide(text) == chinese]
    return sum(1 for corners in counted if stands(corners)) / len(counted) if counted else 0.0


def standing_share(lines: list[tuple[Corners, str]]) -> float:
    """The share of the page's lines of letters and digits, ``MIN_CHARS`` or more, that stand on end."""
    return _standing(lines, chinese=False)


def lying_weight(lines: list[tuple[Corners, str, float]]) -> float:
    """Characters read on lines lying down, each counted by the recognizer's confidence."""
    return sum(confidence * len(text.strip()) for corners, text, confidence in lines
               if (size := _size(corners))[0] >= size[1])


def better_turn(standing: float, turned: dict[int, float]) -> int:
    """The quarter turn (degrees clockwise) whose lying weight beats the page as it stands by
    ``MARGIN``, else 0."""
    turn, weight = max(turned.items(), key=lambda item: item[1], default=(0, 0.0))
    return turn if weight > MARGIN * standing else 0


def _equal_neighbours(chars: list[str]) -> int:
    return sum(1 for a, b in pairwise(chars) if a == b)


def repeated_share(lines: list[tuple[Corners, str]]) -> float:
    """Of the pairs of neighbouring Chinese characters on the page's lines, the share that are equal."""
    pairs = equal = 0
    for _, text in lines:
        chars = wide_chars(text)
        pairs += max(len(chars) - 1, 0)
        equal += _equal_neighbours(chars)
    return equal / pairs if pairs else 0.0


def may_be_vertical(lines: list[tuple[Corners, str]]) -> bool:
    """A page of Chinese whose reading may have run across its columns, or whose lines stand on end."""
    return repeated_share(lines) >= ACROSS_COLUMNS or _standing(lines, chinese=True) >= SIDEWAYS_SHARE


def read_weight(lines: list[tuple[Corners, str, float]], chinese_only: bool = False) -> float:
    """Characters read on lines lying down (only the Chinese ones with ``chinese_only``), each by the
    recognizer's confidence; a Chinese character equal to its neighbour counts against its line (a line
    read across columns of names that end alike)."""
    weight = 0.0
    for corners, text, confidence in lines:
        width, height = _size(corners)
        if width >= height:
            chars = wide_chars(text)
            counted = len(chars) if chinese_only else len(text.replace(" ", ""))
            weight += confidence * (counted - 2 * _equal_neighbours(chars))
    return weight


def reads_down(across: list[tuple[Corners, str, float]], down: list[tuple[Corners, str, float]]) -> bool:
    """Whether the reading of the page turned a quarter counter-clockwise (``down``: its columns as
    lines) outweighs the page as it stands (``across``): its Chinese by ``MARGIN``, while it keeps
    ``KEEPS`` of all it reads (a table of part numbers under headings set on end reads its headings
    better turned, and its rows far worse)."""
    return (read_weight(down, chinese_only=True) > MARGIN * max(read_weight(across, chinese_only=True), 0.0)
            and read_weight(down) >= KEEPS * read_weight(across))
