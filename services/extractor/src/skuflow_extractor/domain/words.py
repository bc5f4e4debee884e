"""Words and visual rows: the units tables and cards are read from.

A text line from PyMuPDF may hold several table cells when they sit close together
('CB-26551-PK Pink'), so tables are read word by word, each word placed by its own box
(from the character boxes, or spread over the line's box for OCR lines, which have none).
"""

from __future__ import annotations

import math
import re
import statistics
import unicodedata
from dataclasses import dataclass, replace
from itertools import groupby, pairwise
from typing import NamedTuple

from skuflow_catalog.headers import CJK
from skuflow_catalog.prices import leaders

from skuflow_contracts.ir import BBox, ParsedPage, TextLine

MIN_SKEW = 0.003  # radians (~0.2°): below this a page is read as it is
CELL_GAP = 0.8  # line heights: a wider gap between two words separates two cells
LETTER_RUN = 4  # single characters in a row that may be a letter-spaced text layer
WORD_SPACE_RATIO = 2.5  # a letter-spaced run's spaces between words are this much wider than between letters
SLANTED = 2.0  # font sizes: a line box this tall and this wide holds text set at an angle
BAND_SLACK = 2.0  # points: rules above two cells of one ruled row lie this close in height
BAND_REACH = 2.0  # line heights: a cell's text starts at most this far below the rule over its row
RULE_SLACK = 0.5  # points a cell border may overlap the words it stands between
LABEL = re.compile(r"[^\s:：]{2,}[:：]")  # 'Model:', '名称/Description：' starting a word
JUSTIFIED_SPREAD = 1.6  # the widest gap of characters spread over a width is at most this times the narrowest
LETTER_EM, SPACE_EM = 0.6, 0.3  # usual widths of a Latin letter or digit and of a word space, in ems


@dataclass(frozen=True)
class Line:
    """A text line with its place on the page; ``index`` identifies it across readers."""

    index: int
    text: str
    bbox: BBox
    size: float
    heading: bool
    words: tuple[Word, ...]
    confidence: float | None = None  # OCR recognition confidence; None for a text layer
    block: int = -1  # the text block it was read from

    @property
    def height(self) -> float:
        return self.bbox[3] - self.bbox[1]


@dataclass(frozen=True)
class Word:
    text: str
    bbox: BBox
    line: int
    walls: tuple[float | None, float | None] = (None, None)  # x of the cell borders drawn left and right of it


def walled(word: Word, rules: list[BBox]) -> Word:
    """The word with the vertical rules (cell borders) nearest it on either side, across its middle
    (``rules``: those reaching the word's line, found once per line)."""
    middle = (word.bbox[1] + word.bbox[3]) / 2
    across = [x for x, y0, _, y1 in rules if y0 <= middle <= y1]
    own = [x for x in word.walls if x is not None]  # a dot leader's ends stand as borders too
    left = max((x for x in across + own if x <= word.bbox[0] + RULE_SLACK), default=None)
    right = min((x for x in across + own if x >= word.bbox[2] - RULE_SLACK), default=None)
    return replace(word, walls=(left, right)) if (left, right) != word.walls else word


def _walled_off(left: Word, right: Word) -> bool:
    """A cell border stands between the two words: a price and the note in the cell beside it
    ('¥3,300 | 個室') are two cells, however close."""
    return left.walls[1] is not None and left.walls[1] <= right.bbox[0] + RULE_SLACK


def _char_boxes(line: TextLine) -> list[tuple[str, BBox]] | None:
    chars = []
    for span in line.spans:
        if len(span.char_boxes) != len(span.text):
            return None
        chars += list(zip(span.text, span.char_boxes, strict=True))
    return chars or None


def _advance(text: str, i: int) -> float:
    """The width of ``text[i]`` in ems, roughly: CJK full width, a space between words narrow, anything
    else a letter's width. A space between two digits keeps a letter's width: OCR prints one space
    for the gutter between two amounts ('30 35', a menu's M and L prices), which parts two cells."""
    ch = text[i]
    if ch.isspace():
        between_digits = 0 < i < len(text) - 1 and text[i - 1].isdigit() and text[i + 1].isdigit()
        return LETTER_EM if between_digits else SPACE_EM
    return 1.0 if unicodedata.east_asian_width(ch) in "WF" else LETTER_EM


def _spread(line: TextLine) -> list[tuple[str, BBox]]:
    """Character boxes estimated by spreading the line's box over its characters by their usual
    widths (OCR lines). Spread evenly, every space took a letter's width, so the words of one OCR
    line ('PRODUCTOS MINIBAR') stood as far apart as two cells and were read as two."""
    x0, y0, x1, y1 = line.bbox
    advances = [_advance(line.text, i) for i in range(len(line.text))]
    scale = (x1 - x0) / max(sum(advances), 1e-9)
    boxes, left = [], x0
    for ch, advance in zip(line.text, advances, strict=True):
        boxes.append((ch, (left, y0, left + advance * scale, y1)))
        left += advance * scale
    return boxes


def _word(chars: list[tuple[str, BBox]], index: int,
          walls: tuple[float | None, float | None] = (None, None)) -> Word:
    """The characters as one word, boxed by their union: a right-to-left script (Persian, Arabic) lists
    its characters from the right, so its first character is not its leftmost."""
    return Word("".join(c for c, _ in chars), (min(b[0] for _, b in chars), min(b[1] for _, b in chars),
                                               max(b[2] for _, b in chars), max(b[3] for _, b in chars)), index, walls)


def split_words(line: TextLine, index: int, ocr: bool = False) -> tuple[Word, ...]:
    """Words, each with the union box of its characters: split at whitespace, and where the text
    layer jumps a wide gap without printing a space (two table cells set on one line); letters set
    apart one by one are joined back (``_letter_spaced``). A dot leader is dropped and stands as a
    cell border between the words it joins ('Mit Erdnusssoße ........ 16,90': a dish and its price).
    An OCR line's characters spread evenly over a fixed width are one word (``_justified``)."""
    chars = _char_boxes(line) or _spread(line)
    dots = {i for start, end in leaders("".join(ch for ch, _ in chars)) for i in range(start, end)}
    kept = _justified(chars) if ocr else set()
    words: list[Word] = []
    current: list[tuple[str, BBox]] = []
    wall: float | None = None  # where the leader before the current word ends
    jump = CELL_GAP * (line.bbox[3] - line.bbox[1])
    for i, (ch, box) in enumerate([*chars, (" ", line.bbox)]):
        if current and (ch.isspace() or i in dots or (box[0] - current[-1][1][2] > jump and i not in kept)):
            words.append(_word(current, index, (wall, None)))
            current, wall = [], None
        if i in dots:
            if words and wall is None and words[-1].walls[1] is None:  # the leader's start borders the word before
                words[-1] = replace(words[-1], walls=(words[-1].walls[0], box[0]))
            wall = box[2]
        elif not ch.isspace():
            current.append((ch, box))
    return _letter_spaced(words, index)


def _justified(chars: list[tuple[str, BBox]]) -> set[int]:
    """Characters of a name spread evenly over the width of its column ('鱈　魚　肝', as Chinese menus
    justify short names): a run of CJK characters printed without a space whose gaps are all alike.
    Two cells set on one line leave one gap wider than the rest. Returns the indexes that continue
    the character before them."""
    kept: set[int] = set()
    for cjk, group in groupby(range(len(chars)), key=lambda i: bool(CJK.match(chars[i][0]))):
        run = list(group)
        gaps = [chars[b][1][0] - chars[a][1][2] for a, b in pairwise(run)]
        if cjk and gaps and max(gaps) <= JUSTIFIED_SPREAD * max(min(gaps), 1.0):
            kept.update(run[1:])
    return kept


def _letter_spaced(words: list[Word], index: int) -> tuple[Word, ...]:
    """Text set with wide letter spacing whose text layer prints a space after every character
    ('о т 6 2 0 0 0 0' for 'от 620 000'): in a run of single characters the gaps are of two kinds,
    the spacing between letters and, about twice as wide or more, the real spaces between words.
    The letters are joined at the narrow gaps; a run without two kinds of gaps is left as it is."""
    out: list[Word] = []
    for single, group in groupby(words, key=lambda w: len(w.text) == 1):
        run = list(group)
        gaps = [b.bbox[0] - a.bbox[2] for a, b in pairwise(run)] if single and len(run) >= LETTER_RUN else []
        if not gaps or max(gaps) < WORD_SPACE_RATIO * max(min(gaps), 0.1):
            out += run
            continue
        cut = (min(gaps) + max(gaps)) / 2
        letters = [(run[0].text, run[0].bbox)]
        for word, gap in zip(run[1:], gaps, strict=True):
            if gap >= cut:
                out.append(_word(letters, index))
                letters = []
            letters.append((word.text, word.bbox))
        out.append(_word(letters, index))
    return tuple(out)


def _atomic(word: Word) -> bool:
    """A number, a code or a CJK term: no lower-case letters, as cells of spec tables are."""
    return not any(ch.islower() for ch in word.text)


def runs(words: list[Word] | tuple[Word, ...], height: float, atom_gap: float | None = None) -> list[list[Word]]:
    """Words, left to right, cut where a gap wider than ``CELL_GAP`` heights separates them (cells or
    captions set side by side), or, with ``atom_gap``, wider than that between two numbers or codes,
    since dense spec tables set their columns closer than words in a sentence."""
    found: list[list[Word]] = []
    for word in sorted(words, key=lambda w: w.bbox[0]):
        gap = word.bbox[0] - found[-1][-1].bbox[2] if found else math.inf
        atoms = atom_gap is not None and found and _atomic(word) and _atomic(found[-1][-1])
        if gap <= (atom_gap if atoms else CELL_GAP) * height and not _walled_off(found[-1][-1], word):
            found[-1].append(word)
        else:
            found.append([word])
    return found


def _at_repeated_labels(words: list[Word]) -> list[list[Word]]:
    """A line printing one label twice ('名称/Description:显示器支架 名称/Description:迷你蓝牙音箱')
    holds two cells, two cards side by side read as one line: it is cut before the label's repeat."""
    parts: list[list[Word]] = [[]]
    seen: set[str] = set()
    for word in words:
        label = LABEL.match(word.text)
        if label and label.group(0) in seen and parts[-1]:
            parts.append([])
            seen = set()
        if label:
            seen.add(label.group(0))
        parts[-1].append(word)
    return parts


def page_lines(page: ParsedPage, skip_blocks: set[int]) -> list[Line]:
    """Every line outside the skipped blocks (page headers and footers), in reading order; a text line
    holding cells or captions far apart becomes one line per cell."""
    lines: list[Line] = []
    for block in page.text_blocks:
        if block.block_id in skip_blocks:
            continue
        for line in block.lines:
            if not line.text.strip():
                continue
            size = max((s.size for s in line.spans), default=block.font_size) or block.font_size
            if _slanted(line.bbox, size):
                continue
            heading = block.block_type == "heading"
            words = split_words(line, len(lines), block.confidence is not None)
            if page.column_rules:
                y0, y1 = line.bbox[1], line.bbox[3]
                beside = [rule for rule in page.column_rules if rule[1] <= y1 and rule[3] >= y0]
                words = tuple(walled(word, beside) for word in words) if beside else words
            cells = runs(words, line.bbox[3] - line.bbox[1]) if len(words) > 1 else [list(words)]
            cells = [part for run in cells for part in _at_repeated_labels(run)]
            if len(cells) == 1:
                joined = len(words) < len(line.text.split())  # letter-spaced text read as words
                text = " ".join(w.text for w in words) if joined else line.text.strip()
                lines.append(Line(len(lines), text, line.bbox, size, heading, words, block.confidence, block.block_id))
                continue
            for run in cells:
                box = (run[0].bbox[0], line.bbox[1], run[-1].bbox[2], line.bbox[3])
                index = len(lines)
                lines.append(Line(index, " ".join(w.text for w in run), box, size, heading,
                                  tuple(replace(w, line=index) for w in run), block.confidence, block.block_id))
    return sorted(_spread_names(_ells(lines)), key=lambda ln: (ln.bbox[1], ln.bbox[0]))


JUSTIFY_SLACK = 0.25  # character widths: how closely a spread name's ends meet those of a name filling its column


def _filling(line: Line) -> bool:
    return len(line.text) >= 3 and all(CJK.match(ch) for ch in line.text)


def _spread_names(lines: list[Line]) -> list[Line]:
    """Short names justified to their column's width ('豆　　　瓣' under '泰式辣椒', as Chinese menus
    set them) whose characters the text layer prints as lines of one character each: a run of such
    characters on one row, the first at the left edge and the last at the right edge of a longer name
    printed in the same column, is one name. Two one-character cells that no name spans ('小 | 中'
    over two price columns) stay apart."""
    singles = [ln for ln in lines if len(ln.text) == 1 and CJK.match(ln.text)]
    spans = [(ln.bbox[0], ln.bbox[2]) for ln in lines if _filling(ln)]
    if len(singles) < 2 or not spans:
        return lines
    joined: dict[int, Line] = {}
    dropped: set[int] = set()
    for chars in rows_of(singles, 0.0):
        start = 0
        while start < len(chars) - 1:
            first, slack = chars[start], JUSTIFY_SLACK * chars[start].height
            end = next((k for k in range(len(chars) - 1, start, -1) if any(
                abs(left - first.bbox[0]) <= slack and abs(right - chars[k].bbox[2]) <= slack
                for left, right in spans)), None)
            if end is None:
                start += 1
                continue
            run = chars[start:end + 1]
            box = (first.bbox[0], min(c.bbox[1] for c in run), run[-1].bbox[2], max(c.bbox[3] for c in run))
            text = "".join(c.text for c in run)
            joined[first.index] = replace(first, text=text, bbox=box, words=(Word(text, box, first.index),))
            dropped.update(c.index for c in run[1:])
            start = end + 1
    return [joined.get(ln.index, ln) for ln in lines if ln.index not in dropped]


CAPITAL_I = re.compile(r"I[a-z]+")  # 'Its': OCR's capital I for a lowercase l ('20 lts' read '20 Its')


def _ells(lines: list[Line]) -> list[Line]:
    """OCR reads a lowercase l opening a word as a capital I ('20 Its' beside '20 lts'): where the page
    prints a word after a number both ways, the lowercase spelling is the word (a unit after an
    amount; a capital I there starts no word)."""
    counted = {b.text for ln in lines if ln.confidence is not None for a, b in pairwise(ln.words)
               if a.text[-1:].isdigit()}
    misread = {text for text in counted if CAPITAL_I.fullmatch(text) and f"l{text[1:]}" in counted}
    return [_spelt(ln, misread) if misread and ln.confidence is not None else ln for ln in lines]


def _spelt(line: Line, misread: set[str]) -> Line:
    words = list(line.words)
    for n in range(1, len(words)):
        if words[n].text in misread and words[n - 1].text[-1:].isdigit():
            words[n] = replace(words[n], text=f"l{words[n].text[1:]}")
    if words == list(line.words):
        return line
    return replace(line, words=tuple(words), text=" ".join(word.text for word in words))


def _slanted(box: BBox, size: float) -> bool:
    """Text set at an angle (a 'PRELIMINARY' or 'CONFIDENTIAL' watermark across the page): its box is
    many font sizes tall *and* wide. It reads across every row and would join them all into one;
    upright text (one size tall) and vertical text (one size wide) are kept."""
    return size > 0 and min(box[2] - box[0], box[3] - box[1]) > SLANTED * size


def rows_of(lines: list[Line], tolerance: float, rules: list[BBox] | tuple = ()) -> list[list[Line]]:
    """Lines whose vertical centres are within ``tolerance`` (or a third of their height) share a row;
    so do two single-line cells of one ruled band that overlap in height (``rules``: the page's
    horizontal rules), as a name set at its cell's top and a price set at its cell's bottom do."""
    rows: list[list[Line]] = []
    ordered = sorted(lines, key=lambda ln: (ln.bbox[1] + ln.bbox[3]) / 2)
    for line in ordered:
        centre = (line.bbox[1] + line.bbox[3]) / 2
        if rows:
            anchor = rows[-1][0]
            if abs(centre - (anchor.bbox[1] + anchor.bbox[3]) / 2) <= max(tolerance, anchor.height / 3) or (
                    rules and len(rows[-1]) == 1 and _one_band(anchor, line, rules, ordered)):
                rows[-1].append(line)
                continue
        rows.append([line])
    return [sorted(row, key=lambda ln: ln.bbox[0]) for row in rows]


def _share_x(a: BBox, b: BBox) -> bool:
    """Do the two share some x (a rule crossing a line, two lines of one column)?"""
    return a[0] < b[2] and b[0] < a[2]


def _band(box: BBox, rules: list[BBox] | tuple) -> tuple[float, float] | None:
    """The rules right above and below a line (the above one within ``BAND_REACH`` line heights)."""
    reach = box[1] - BAND_REACH * (box[3] - box[1])
    above = max((r[1] for r in rules if _share_x(r, box) and reach <= r[1] <= box[1] + 1), default=None)
    below = min((r[1] for r in rules if _share_x(r, box) and r[1] >= box[3] - 1), default=None)
    return None if above is None or below is None else (above, below)


def _one_band(first: Line, line: Line, rules: list[BBox] | tuple, lines: list[Line]) -> bool:
    """Two lines that overlap in height, in different columns, between rules at the same heights, each
    the only line of its cell: one ruled row whose cells are aligned differently."""
    a, b = first.bbox, line.bbox
    if min(a[3], b[3]) <= max(a[1], b[1]) or _share_x(a, b):
        return False
    band, other = _band(a, rules), _band(b, rules)
    if band is None or other is None or any(abs(x - y) > BAND_SLACK for x, y in zip(band, other, strict=True)):
        return False
    return not any(ln is not first and ln is not line and band[0] < (ln.bbox[1] + ln.bbox[3]) / 2 < band[1]
                   and (_share_x(ln.bbox, a) or _share_x(ln.bbox, b))
                   for ln in lines)


def skew_of(lines: list[Line]) -> float:
    """The page's skew (radians): the median slope between neighbouring lines of one visual row.
    Scanned pages come out of the scanner slightly turned; their rows then drift downwards."""
    slopes = []
    for a in lines:
        for b in lines:
            dx = b.bbox[0] - a.bbox[2]
            dy = (b.bbox[1] + b.bbox[3] - a.bbox[1] - a.bbox[3]) / 2
            if 0 < dx < 200 and abs(dy) < 0.6 * min(a.height, b.height):
                slopes.append(dy / (b.bbox[0] - a.bbox[0]))
    return math.atan(statistics.median(slopes)) if len(slopes) >= 5 else 0.0


def turn(box: BBox, angle: float) -> BBox:
    """The axis-aligned box around ``box`` turned by ``angle`` about the page's origin."""
    cos, sin = math.cos(angle), math.sin(angle)
    corners = [(x * cos + y * sin, -x * sin + y * cos) for x in (box[0], box[2]) for y in (box[1], box[3])]
    return (min(c[0] for c in corners), min(c[1] for c in corners), max(c[0] for c in corners),
            max(c[1] for c in corners))


class Upright(NamedTuple):
    """A page's lines turned upright, and the angle they were turned by."""

    lines: list[Line]
    skew: float


def upright_lines(page: ParsedPage) -> Upright:
    """Every line of the page, turned upright: what the geometry stage, the rule readers and the
    cross-page check all read (once a page)."""
    lines = page_lines(page, set())
    if page.parser_backend == "ocr":  # only a scan is skewed; a text layer's rows are level
        return Upright(*straighten(lines))
    return Upright(lines, 0.0)


def straighten(lines: list[Line]) -> tuple[list[Line], float]:
    """Lines turned upright when the page is skewed, and the angle they were turned by."""
    angle = skew_of(lines)
    if abs(angle) < MIN_SKEW:
        return lines, 0.0

    def upright(line: Line) -> Line:
        return replace(line, bbox=turn(line.bbox, angle),
                       words=tuple(replace(w, bbox=turn(w.bbox, angle)) for w in line.words))

    return sorted(map(upright, lines), key=lambda ln: (ln.bbox[1], ln.bbox[0])), angle
