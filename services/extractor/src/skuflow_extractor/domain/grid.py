"""Tables found from the geometry of their words: rows, cells and columns, in any language.

A row is the lines whose vertical centres line up; a cell is a run of a row's words without a wide
gap; columns are the x-ranges that the cells of many rows share, separated by gutters that (almost)
no cell crosses. So a header centred over a right-aligned price column, a title spanning two
columns or a long description does not merge columns: a gutter only has to be free in most rows.
The same holds for text-layer words and OCR words, which is what lets one engine read both.
"""

from __future__ import annotations

import math
import re
import statistics
from bisect import bisect_right
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import pairwise

from skuflow_catalog.headers import header_role, is_currency, labelled_value
from skuflow_catalog.prices import BARE_AMOUNT, price_of_cell

from skuflow_contracts.ir import BBox, union
from skuflow_extractor.domain.words import Line, Word, rows_of, runs

ATOM_GAP = 0.42  # row heights: a wider gap between two numbers or codes separates two cells
MAX_ROW_GAP = 2.6  # row heights: a wider gap above a row ends the block of rows it would join
MAX_LOOSE_ROWS = 4  # this many rows without product data in a row (a paragraph) end a table
IN_STEP = 3  # cells of two rows, each under the other's, that keep a table's rows together across a gap
MAX_HEADER_ROWS = 6  # lines a header may wrap into
HEADER_LEADING = 1.6  # row heights: a wider gap above a header line leaves what is above (a title) out
PROSE_SHARE = 0.6  # a one-cell line wider than this share of the table above it is prose or a title
PITCH_SLACK = 1.15  # a header may stand one row pitch (and a little) above the first row
SPAN_OVERLAP = 0.3  # a cell stands over a column when it covers this share of the narrower of the two
ALIGN = 4.0  # points two left edges may differ and still start one column
FULL_ROW_SHARE = 0.6  # rows with at least this share of the widest row's cells define the columns
TAIL_GAP = 0.5  # row heights: a line this close under a table's last row may be a wrapped line of it
MAX_TAIL_LINES = 2  # … and so may the line under it
LETTER = re.compile(r"[^\W\d_]")
CLOSING = re.compile(r"[)）\]】」』]+[.,;:]?")
CROSSING_SHARE = 8  # up to 1 row in 8 may cross a gutter (a spanning title, a long cell)
TRAILING_ROWS = 3  # rows of a column ending in an amount after its words that make the amounts a column
TRAILING_SHARE = 0.5  # … of the rows printing in that column
COMPOSITE_SHARE = 0.3  # share of a column's rows printing a name and a number as cells of their own that make it
# several sections' columns run together (one section's rows at least)
HEADING_WORDS = 4  # words of a section's heading at most
SECTION_GAP = 1.0  # row heights of blank space above a section's heading (a blank line at least)


@dataclass(frozen=True)
class Cell:
    text: str
    bbox: BBox
    words: tuple[Word, ...]


@dataclass(frozen=True)
class Row:
    cells: tuple[Cell, ...]
    lines: frozenset[int]
    height: float
    read: tuple[tuple[int, float], ...] = ()  # (line index, OCR confidence) of its OCR'd lines

    def confidence(self, lines: set[int] | None = None) -> float:
        """How surely OCR read the row (of ``lines`` only, when given): the least confidence; 1 for a
        text layer."""
        return min((c for n, c in self.read if lines is None or n in lines), default=1.0)

    @property
    def top(self) -> float:
        return min(cell.bbox[1] for cell in self.cells)

    @property
    def bottom(self) -> float:
        return max(cell.bbox[3] for cell in self.cells)

    @property
    def bbox(self) -> BBox:
        return union([cell.bbox for cell in self.cells])


Column = tuple[float, float]  # the x-range its cells occupy


@dataclass(frozen=True)
class Grid:
    """A block of rows and the columns they share; each column reaches to the middle of its gutters."""

    rows: tuple[Row, ...]
    columns: tuple[Column, ...]
    above: tuple[Row, ...] = ()  # rows right above the block, header candidates

    @cached_property
    def _gutters(self) -> list[float]:
        return [(a[1] + b[0]) / 2 for a, b in pairwise(self.columns)]

    def column_of(self, word: Word | Cell) -> int:
        """The column whose reach holds the word's (or cell's) centre (computed once per grid: every word asks)."""
        return bisect_right(self._gutters, (word.bbox[0] + word.bbox[2]) / 2)

    def texts(self, row: Row) -> list[str]:
        """The row's text per column ('' where it prints nothing)."""
        parts: list[list[str]] = [[] for _ in self.columns]
        for cell in row.cells:
            for column, word in self.placed(cell):
                parts[column].append(word.text)
        return [" ".join(p) for p in parts]

    def placed(self, cell: Cell) -> list[tuple[int, Word]]:
        """The cell's words, each with its column; a closing mark ends the phrase before it ('( gai )'),
        even where it stands past a gutter."""
        placed: list[tuple[int, Word]] = []
        for word in cell.words:
            closes = placed and CLOSING.fullmatch(word.text)
            placed.append((placed[-1][0] if closes else self.column_of(word), word))
        return placed

    def words_in(self, row: Row, column: int) -> list[Word]:
        """The row's words placed in ``column``."""
        return [word for cell in row.cells for j, word in self.placed(cell) if j == column]

    def spans(self, cell: Cell) -> list[int]:
        """The columns a cell overlaps (a header cell may stand over several)."""
        return [j for j, (left, right) in enumerate(self.columns)
                if min(cell.bbox[2], right) - max(cell.bbox[0], left)
                > SPAN_OVERLAP * min(right - left, cell.bbox[2] - cell.bbox[0])]


def _cells(words: list[Word], height: float) -> tuple[Cell, ...]:
    """A row's words joined into cells ('512 512 256' are three cells, '32 400' one amount)."""
    return tuple(Cell(" ".join(w.text for w in g), union([w.bbox for w in g]), tuple(g))
                 for g in runs(words, height, ATOM_GAP))


def cell_rows(lines: list[Line], tolerance: float, rules: list[BBox] | tuple = ()) -> list[Row]:
    """The page's visual rows (``rules`` join the cells of a ruled band), each cut into cells at wide
    gaps between its words."""
    rows = []
    for row in rows_of(lines, tolerance, rules):
        height = statistics.median(line.height for line in row)
        words = [word for line in row for word in line.words]
        if words:
            read = tuple((line.index, line.confidence) for line in row if line.confidence is not None)
            rows.append(Row(_cells(words, height), frozenset(line.index for line in row), height, read))
    return rows


def _coverage(rows: list[Row]) -> tuple[int, list[int]]:
    """How many rows' cells cover each point of x (from the leftmost cell on)."""
    left = math.floor(min(cell.bbox[0] for row in rows for cell in row.cells))
    right = math.ceil(max(cell.bbox[2] for row in rows for cell in row.cells))
    steps = [0] * (right - left + 2)
    for row in rows:
        for cell in row.cells:
            steps[int(cell.bbox[0]) - left] += 1
            steps[math.ceil(cell.bbox[2]) - left + 1] -= 1
    covered, running = [], 0
    for step in steps:
        running += step
        covered.append(running)
    return left, covered


def _runs(values: list[int], test) -> list[tuple[int, int]]:
    runs, start = [], None
    for x, value in enumerate([*values, None]):
        inside = value is not None and test(value)
        if inside and start is None:
            start = x
        elif not inside and start is not None:
            runs.append((start, x - 1))
            start = None
    return runs


def columns_of(rows: list[Row]) -> tuple[Column, ...]:
    """Columns of the rows that print (nearly) every cell, so merged cells of spec tables do not join
    columns: runs of covered x, cut again where at most one row in ``CROSSING_SHARE`` crosses a
    valley between two well-covered parts."""
    widest = max((len(row.cells) for row in rows), default=0)
    multi = [row for row in rows if len(row.cells) >= max(2, FULL_ROW_SHARE * widest)]
    if not multi:
        return ()
    left, covered = _coverage(multi)
    allowed = len(multi) // CROSSING_SHARE
    columns: list[Column] = []
    for start, end in _runs(covered, lambda v: v > 0):
        cuts = [start]
        for v0, v1 in _runs(covered[start:end + 1], lambda v: v <= allowed):
            a, b = start + v0, start + v1
            left_peak, right_peak = max(covered[cuts[-1]:a], default=0), max(covered[b + 1:end + 1], default=0)
            if min(left_peak, right_peak) > 2 * allowed:
                columns.append((left + cuts[-1], left + a))
                cuts.append(b + 1)
        columns.append((left + cuts[-1], left + end))
    return tuple(columns)


def _amount(word: Word) -> bool:
    """A word printing an amount alone: with its currency ('$100') or a bare whole number ('19')."""
    price = price_of_cell(word.text)
    return price is not None and (price.currency is not None or BARE_AMOUNT.fullmatch(word.text) is not None)


def _middle(word: Word) -> float:
    return (word.bbox[0] + word.bbox[2]) / 2


def _trailing_amount(words: list[Word]) -> int:
    """How many of the cell's last words print its amount: one ('40', '$60'), two for an amount and
    its currency set apart ('85,00 TL'), 0 for none. 'NT 600' after a name is one amount, not a name
    ending in 'NT'."""
    if len(words) >= 2 and is_currency(words[-1].text) and price_of_cell(words[-2].text) is not None:
        return 2
    return int(bool(words) and _amount(words[-1]) and not (len(words) >= 2 and is_currency(words[-2].text)))


def trailing_amounts(rows: list[Row], columns: tuple[Column, ...]) -> tuple[Column, ...]:
    """Columns cut where their cells end in an amount, some after a name ('櫻花蝦干貝肉包 40', '5.時蔬什錦鍋
    $60', 'Bottle of beer 20,00 TL' under '85,00 TL'): a menu sets its prices so close to the names that
    no gutter opens between them, but when many rows of a column end in an amount, some after a name,
    and every name's middle lies left of every amount's, the amounts are a column of their own."""
    grid = Grid(tuple(rows), columns)
    cuts: dict[int, float] = {}
    for j in range(len(columns)):
        cells = [sorted((w for cell in row.cells for w in cell.words if grid.column_of(w) == j),
                        key=lambda w: w.bbox[0]) for row in rows]
        names, amounts, filled = [], [], 0
        for words in cells:
            filled += bool(words)
            if not (tail := _trailing_amount(words)):
                continue
            amounts.append(_middle(words[-tail]))
            if any(LETTER.search(w.text) for w in words[:-tail]):
                names.append(max(_middle(w) for w in words[:-tail]))
        if len(names) >= TRAILING_ROWS and len(amounts) >= TRAILING_SHARE * filled and max(names) < min(amounts):
            cut = (max(names) + min(amounts)) / 2
            # a row ending in an amount or a currency parts there: right of the cut stands its amount whole
            if all(len([w for w in words if _middle(w) >= cut]) in (0, _trailing_amount(words)) for words in cells
                   if words and (_trailing_amount(words) or is_currency(words[-1].text))):
                cuts[j] = cut
    return tuple(part for j, (left, right) in enumerate(columns)
                 for part in (((left, cuts[j]), (cuts[j], right)) if j in cuts else ((left, right),)))


def is_data_row(row: Row) -> bool:
    """Two cells or more, one of them printing a digit: a product row rather than a header or prose."""
    return len(row.cells) >= 2 and any(any(ch.isdigit() for ch in cell.text) for cell in row.cells)


def _in_step(above: Row, row: Row) -> bool:
    """Two data rows whose cells stand one under the other, three or more, each of the kind of the one
    above it (words, a number, a price): rows of one table however far apart (a photo in every row
    sets them a picture's height apart), not the sizes of one row of product cards over the prices of
    the next."""
    return is_data_row(row) and len(row.cells) == len(above.cells) >= IN_STEP and all(
        a.bbox[0] < b.bbox[2] and b.bbox[0] < a.bbox[2] and _kind(a.text) == _kind(b.text)
        for a, b in zip(above.cells, row.cells, strict=True))


def _kind(text: str) -> tuple[bool, bool]:
    return price_of_cell(text) is not None, any(ch.isalpha() for ch in text)


def blocks_of(rows: list[Row]) -> list[list[Row]]:
    """Runs of data rows close together; other rows may sit between them (a wrapped cell, a section
    title) but a paragraph of them, or a wide gap, ends the block."""
    blocks: list[list[Row]] = []
    current: list[Row] = []
    loose = 0
    for row in rows:
        wide = bool(current) and row.top - current[-1].bottom > MAX_ROW_GAP * max(row.height, current[-1].height)
        if current and ((wide and not (loose == 0 and _in_step(current[-1], row))) or loose >= MAX_LOOSE_ROWS):
            blocks.append(current[:len(current) - loose])
            current, loose = [], 0
        if is_data_row(row):
            current.append(row)
            loose = 0
        elif current:
            current.append(row)
            loose += 1
    blocks.append(current[:len(current) - loose])
    return [block for block in blocks if block]


def _header_rows(rows: list[Row], first: int, block: list[Row]) -> tuple[Row, ...]:
    """Rows right above a block (the first within a row pitch of it, the others closer than
    ``HEADER_LEADING`` row heights to the next), sharing its x-range: the table's header, however
    many lines it wraps into."""
    left, right = min(r.bbox[0] for r in block), max(r.bbox[2] for r in block)
    found: list[Row] = []
    below = block[0]
    pitch = block[1].top - block[0].top if len(block) > 1 else 0.0
    for row in reversed(rows[max(0, first - MAX_HEADER_ROWS):first]):
        first_line = PITCH_SLACK * pitch - row.height if not found else 0.0
        reach = max(HEADER_LEADING * max(row.height, below.height), first_line)
        if row.top >= below.top or below.top - row.bottom > reach:
            break
        prose = len(row.cells) == 1 and row.bbox[2] - row.bbox[0] > PROSE_SHARE * (right - left)
        if row.bbox[2] < left or row.bbox[0] > right or is_data_row(row) or prose:
            break
        found.insert(0, row)
        below = row
    return tuple(found)


def grids_of(lines: list[Line], tolerance: float, rules: list[BBox] | tuple = ()) -> list[Grid]:
    """Every block of aligned product rows on the page, with its columns and the rows above it.
    Labelled lines ('单价：¥283.90') belong to product cards or captions, never to a table's rows."""
    rows = cell_rows([line for line in lines if not labelled_value(line.text)], tolerance, rules)
    position = {id(row): n for n, row in enumerate(rows)}
    grids = []
    sections = [section for found in blocks_of(rows) for section in (
        [found] if _headed(_header_rows(rows, position[id(found[0])], found), found) else _sections(found))]
    for block in sections:
        columns = trailing_amounts(block, columns_of(block))
        if len(columns) >= 2:
            block += _wrapped_tail(rows[position[id(block[-1])] + 1:], block[-1], columns)
            grids.append(Grid(tuple(block), columns, _header_rows(rows, position[id(block[0])], block)))
    return grids


def _cells_in(grid: Grid, row: Row, j: int) -> list[Cell]:
    return [cell for cell in row.cells if grid.column_of(cell) == j]


def _composite(grid: Grid, j: int) -> bool:
    """A column whose rows print a name and a size or an amount as cells of their own: sections of
    a list typed with their own tab stops ('Vodka Família | 0,04 l | 0,90 €' above 'Ostravar Mustang 11% |
    0,5 l | 1,50 €', the sizes of one under the prices of the other), so no gutter runs through them all."""
    printing = [cells for row in grid.rows if (cells := _cells_in(grid, row, j))]
    composite = sum(1 for cells in printing if len(cells) >= 2 and LETTER.search(cells[0].text)
                    and any(ch.isdigit() for ch in cells[-1].text))
    return composite >= TRAILING_ROWS and composite >= COMPOSITE_SHARE * len(printing)


def _heading(grid: Grid, row: Row, j: int) -> bool:
    """A section's heading in column ``j``: one short cell of words there, no digit ('Pivo',
    'Pochutiny'), and no number after it (a product printing no number is followed by its size or
    price; a heading at most by another list's row beside it)."""
    cells = _cells_in(grid, row, j)
    if len(cells) != 1 or LETTER.search(cells[0].text) is None or any(ch.isdigit() for ch in cells[0].text) \
            or len(cells[0].words) > HEADING_WORDS:
        return False
    after = [cell for cell in row.cells if cell.bbox[0] > cells[0].bbox[2]]
    return not after or not any(ch.isdigit() for ch in min(after, key=lambda c: c.bbox[0]).text)


def _headed(above: tuple[Row, ...], block: list[Row]) -> bool:
    """Header words in two cells of a row above the block or of its first rows: the header sets its
    columns, sections or not."""
    return any(sum(1 for cell in row.cells if header_role(cell.text)) >= 2 for row in (*above, *block[:MAX_LOOSE_ROWS]))


def _set_apart(grid: Grid, above: list[Row], row: Row, j: int) -> bool:
    """A blank line at least between the row's cell in column ``j`` and the last cell above it there
    (the list beside may print a row in that space)."""
    last = next((r for r in reversed(above) if _cells_in(grid, r, j)), None)
    return last is None or row.top - max(c.bbox[3] for c in _cells_in(grid, last, j)) >= SECTION_GAP * row.height


def _sections(block: list[Row]) -> list[list[Row]]:
    """A block parted at the headings of its sections (set apart by a blank line) where one of its
    columns runs the cells of several sections together (``_composite``): each section finds its own
    columns. A heading alone
    on its row is left out of both (it stands above the section it heads)."""
    grid = Grid(tuple(block), trailing_amounts(block, columns_of(block)))
    merged = [j for j in range(len(grid.columns)) if _composite(grid, j)]
    if not merged:
        return [block]
    starts = [n for n, row in enumerate(block)
              if n and any(_heading(grid, row, j) and _set_apart(grid, block[:n], row, j) for j in merged)]
    sections = []
    for a, b in pairwise([0, *starts, len(block)]):
        alone = a in starts and len(block[a].cells) == 1
        if b > a + alone:
            sections.append(block[a + alone:b])
    return sections


def _wrapped_tail(after: list[Row], last: Row, columns: tuple[tuple[float, float], ...]) -> list[Row]:
    """The lines a table's last row wraps into ('N32G430F8S7, N32G430F8S7-1' under a list of codes):
    set right under it, inside a column other than the first, within the table's width. A block
    ends at its last data row, which would leave them out."""
    tail: list[Row] = []
    for row in after[:MAX_TAIL_LINES]:
        if is_data_row(row) or row.top - last.bottom > TAIL_GAP * row.height or not all(
                columns[1][0] - ALIGN <= cell.bbox[0] and cell.bbox[2] <= columns[-1][1] + ALIGN for cell in row.cells):
            break
        tail.append(row)
        last = row
    return tail


def split_at_header(grid: Grid, header: list[Row]) -> Grid:
    """Two cells set on one line with a plain space ('CB-26551-PK Pink'), or two tables set side by
    side with no gutter between them ('PAQ. DE 6 PAN X 0.65' touching 'Pan pizza de manjar'), make one
    body column under two cells of one header line: one over its left part, one naming an attribute
    inside it. The column splits where the body's words start, in most rows, between the two header
    cells or under the inner one (a centred header stands right of its names' left edge)."""
    named = [(cell, row) for row in header for cell in row.cells if header_role(cell.text)]
    columns = list(grid.columns)
    rows = [row for row in grid.rows if is_data_row(row)]
    lefts = [[w.bbox[0] for c in row.cells for w in c.words] for row in rows]
    for cell, line in named:
        x = cell.bbox[0]
        for j, (left, right) in enumerate(columns):
            before = [other.bbox[2] for other in line.cells if left - ALIGN <= other.bbox[0] and other.bbox[2] < x]
            if not left + ALIGN < x < right or not before:
                continue
            starts = [x0 for row in lefts for x0 in row if max(before) < x0 <= x + ALIGN]
            start = max(starts, key=lambda s: _starting(lefts, s), default=None)
            if start is not None and 2 * _starting(lefts, start) >= len(rows):
                columns[j:j + 1] = [(left, start - ALIGN), (start - ALIGN / 2, right)]
            break
    return replace(grid, columns=tuple(columns)) if len(columns) > len(grid.columns) else grid


def _starting(lefts: list[list[float]], x: float) -> int:
    """Rows with a word starting at ``x``."""
    return sum(1 for row in lefts if any(abs(x0 - x) <= ALIGN for x0 in row))


def add_header_columns(grid: Grid, header: list[Row]) -> Grid:
    """A header cell naming an attribute over no column of the block heads a column whose cells the
    block's full rows never print (codes set on lines of their own above each row, say)."""
    columns = list(grid.columns)
    for cell in (cell for row in header for cell in row.cells if header_role(cell.text)):
        x0, x1 = cell.bbox[0], cell.bbox[2]
        if all(min(x1, right) - max(x0, left) <= 0 for left, right in columns):
            columns.append((x0, x1))
    return replace(grid, columns=tuple(sorted(columns))) if len(columns) > len(grid.columns) else grid
