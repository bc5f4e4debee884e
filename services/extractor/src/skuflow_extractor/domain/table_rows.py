"""Table rows joined from a block's visual rows: one product row may print on several lines.

A ruled table's rows are the lines between two rules (a merged cell stands in every row it spans).
Records of several lines, each set apart by a blank line, are one row each. Otherwise a line that
prints only in the columns the product rows fill (a wrapped or vertically centred cell) joins the
nearer product row, unless a rule parts them, it translates the row, or it prints a code of its
own. Lines printing elsewhere (a section heading, a note) stay rows of their own.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from itertools import pairwise

from skuflow_catalog.codes import code_score
from skuflow_catalog.headers import CJK

from skuflow_contracts.ir import BBox, union
from skuflow_extractor.domain.grid import FULL_ROW_SHARE, Cell, Grid, Row
from skuflow_extractor.domain.model_cells import JOINERS

PREFIX = 3  # characters part numbers of one series share
RULED_MIN = 3  # rules inside the body that make a table ruled row by row
MAX_BAND_LINES = 10  # lines one ruled row may hold; more means the rules group rows
GROUP_ROWS = 3  # … as do this many lines between two rules that each fill every column
UNDERLINE_SLACK = 3.0  # points: an underline ends within this of its text
BAND_REACH = 2.5  # row heights (per line joined) a wrapped line may lie from the centre of its product row
RECORD_TOUCH, RECORD_APART = 0.25, 1.0  # row heights: lines of one record touch, records stand apart
RECORDS, RECORD_SHARE = 3, 0.6  # records of one number of lines (and their share) that make rows records
UNREAD_CODE = 0.75  # a cell scoring this as a code prints one
LATIN = re.compile(r"[A-Za-z]")
BRACKETED = re.compile(r"\([^()]*\)|（[^（）]*）|\[[^\[\]]*\]")  # a remark in brackets


def _filled(grid: Grid, row: Row, columns: range) -> set[int]:
    texts = grid.texts(row)
    return {j for j in columns if texts[j]}


def _merge(rows: list[Row]) -> Row:
    return Row(tuple(cell for row in rows for cell in row.cells), frozenset().union(*(r.lines for r in rows)),
               max(r.height for r in rows), tuple(pair for r in rows for pair in r.read))


def ruled_rows(grid: Grid, body: list[Row], rules: list[BBox] | tuple,
               columns: range | None = None) -> list[Row] | None:
    """A ruled table's rows: the lines between two rules across the table make one row (a cell of
    several lines, a centred cell). Rules that stop short of a column leave a merged cell there
    (a product name beside its sizes, a series code beside its motors): the column with the most
    rules sets the rows, and a merged cell stands in every row it spans. None where the rules do not
    bound rows of a few lines each (a table ruled only above and below, or in groups). ``columns``: the
    table's, of side-by-side tables ruled each at its own height (all the grid's by default)."""
    columns = columns or range(len(grid.columns))
    if not body:
        return None
    top, bottom = body[0].top, body[-1].bottom
    inside = [r for r in rules if top - 1 < r[1] < bottom + 1]
    if inside:
        text = _line_boxes(body)
        inside = [r for r in inside if not _underline(r, text)]
    per_column = {j: sorted({r[1] for r in inside if r[0] <= (a + b) / 2 <= r[2]})
                  for j, (a, b) in enumerate(grid.columns) if j in columns}
    cuts = max(per_column.values(), key=len)
    if len(cuts) < RULED_MIN:
        return None
    bands = _bands(body, cuts)
    if max(len(rows) for rows in bands) > MAX_BAND_LINES or any(_grouped(grid, rows, columns) for rows in bands):
        return None
    rows = [_merge(rows) if len(rows) > 1 else rows[0] for rows in bands]
    for j, column_cuts in per_column.items():
        if len(column_cuts) < len(cuts):
            rows = _spread_merged(grid, rows, j, column_cuts)
    return rows


def _grouped(grid: Grid, band: list[Row], columns: range) -> bool:
    """Rules around a group of rows, not one row: the band's lines each print a whole row of their own
    (a section of a price list ruled off from the next: 'Thé | 0,50€', 'Café | 0,50€'…)."""
    return len(band) >= GROUP_ROWS and all(len(_filled(grid, row, columns)) == len(columns) for row in band)


def _underline(rule: BBox, text: list[BBox]) -> bool:
    """A rule under the lower half of a text line and no wider than it underlines that text (a link,
    an emphasis); it parts no rows."""
    return any(box[0] - UNDERLINE_SLACK <= rule[0] and rule[2] <= box[2] + UNDERLINE_SLACK
               and (box[1] + box[3]) / 2 <= rule[1] <= box[3] + UNDERLINE_SLACK for box in text)


def _line_boxes(rows: list[Row]) -> list[BBox]:
    """Each text line's extent over the rows' words."""
    boxes: dict[int, list[BBox]] = {}
    for row in rows:
        for cell in row.cells:
            for word in cell.words:
                boxes.setdefault(word.line, []).append(word.bbox)
    return [union(found) for found in boxes.values()]


def _bands(rows: list[Row], cuts: list[float]) -> list[list[Row]]:
    """Rows grouped by the pair of cuts their centres fall between, top to bottom."""
    bands: dict[int, list[Row]] = {}
    for row in rows:
        centre = (row.top + row.bottom) / 2
        bands.setdefault(sum(1 for cut in cuts if cut < centre), []).append(row)
    return [rows for _, rows in sorted(bands.items())]


def _spread_merged(grid: Grid, rows: list[Row], j: int, cuts: list[float]) -> list[Row]:
    """Column ``j`` is ruled more coarsely than the rows: where some of the rows one of its cells spans
    print nothing in it, the cell is merged and its words stand in each of those rows."""
    def in_column(cell: Cell) -> bool:
        return any(column == j for column, _ in grid.placed(cell))

    spread: dict[int, Row] = {}
    for band in _bands(rows, cuts):
        holders = [row for row in band if any(in_column(cell) for cell in row.cells)]
        if len(band) < 2 or not holders or len(holders) == len(band):
            continue
        words = tuple(w for row in holders for w in grid.words_in(row, j))
        text, left, right = " ".join(w.text for w in words), min(w.bbox[0] for w in words), max(
            w.bbox[2] for w in words)
        for row in band:
            cells = [cell for cell in row.cells if not in_column(cell)]
            cells.append(Cell(text, (left, row.top, right, row.bottom), words))
            source = holders if any(row is h for h in holders) else [row, *holders]
            spread[id(row)] = Row(tuple(sorted(cells, key=lambda c: c.bbox[0])), frozenset().union(
                *(r.lines for r in source)), row.height, tuple(pair for r in source for pair in r.read))
    return [spread.get(id(row), row) for row in rows]


def records(body: list[Row]) -> list[Row]:
    """Records of several lines ('01.拉桿' over 'NT 600' over 'Trolley') whose lines touch while a
    blank line sets each apart: where every gap between the rows is one or the other, and most
    records hold one number of lines, the touching lines are one row. (Tables set side by side at
    different heights touch here and there, at no rhythm.)"""
    if len(body) < 2:
        return body
    height = statistics.median(row.height for row in body)
    gaps = [b.top - a.bottom for a, b in pairwise(body)]
    apart = [gap > RECORD_APART * height for gap in gaps]
    if sum(apart) < RECORDS - 1 or not all(wide or gap < RECORD_TOUCH * height
                                           for gap, wide in zip(gaps, apart, strict=True)):
        return body
    records: list[list[Row]] = [[body[0]]]
    for row, wide in zip(body[1:], apart, strict=True):
        if wide:
            records.append([row])
        else:
            records[-1].append(row)
    sizes = Counter(len(record) for record in records)
    size, count = sizes.most_common(1)[0]
    if size < 2 or count < max(RECORDS, RECORD_SHARE * len(records)):
        return body
    several = [record for record in records if len(record) >= 2]
    if 2 * sum(1 for record in several if all(map(_coded_line, record))) >= len(several):
        return body  # every line of a record prints its own code: shaded rows set close, each a product
    return [_merge(record) for record in records]


def _coded_line(row: Row) -> bool:
    return any(code_score(cell.text) >= UNREAD_CODE for cell in row.cells)


def table_rows(grid: Grid, body: list[Row], columns: range, rules: list[BBox] | tuple = ()) -> list[Row]:
    """Visual rows joined into table rows. A row printing most of the table's cells is a product row;
    the lines between two of them that print only in columns the product rows fill (wrapped or
    vertically centred cells of several lines) join the nearer one, unless a rule parts them (a
    section heading ruled off from the rows around it) or they translate it. Lines printing elsewhere
    (a section heading, a note) stay rows of their own."""
    body = records(body)
    texts = [grid.texts(row) for row in body]
    fills = [{j for j in columns if row_texts[j]} for row_texts in texts]
    widest = max((len(f) for f in fills), default=0)
    main = [n for n, f in enumerate(fills) if len(f) >= max(2, FULL_ROW_SHARE * widest)]
    if not main:
        return body
    usual = {j for j in columns if sum(j in fills[n] for n in main) * 2 >= len(main)}
    printed = [" ".join(row_texts) for row_texts in texts]
    groups: dict[int, list[int]] = {n: [n] for n in main}
    for n, fill in enumerate(fills):
        if n in groups or not fill or not fill <= usual:
            continue
        centre = (body[n].top + body[n].bottom) / 2
        joinable = [m for m in main
                    if not parted(body[m], body[n], rules) and not translation(printed[m], printed[n])]
        if not joinable:
            continue
        nearest = min(joinable, key=lambda m: abs((body[m].top + body[m].bottom) / 2 - centre))
        if abs((body[nearest].top + body[nearest].bottom) / 2 - centre) <= BAND_REACH * body[nearest].height * max(
                1, len(groups[nearest])) and not _own_product(body[nearest], body[n]) \
                and not _capitals_over(body[n], body[nearest], texts[n], texts[nearest], fill):
            groups[nearest].append(n)
    joined = {n for members in groups.values() for n in members}
    rows = [(n, _merge([body[m] for m in sorted(groups[n])])) for n in main]
    rows += [(n, row) for n, row in enumerate(body) if n not in joined]
    return [row for _, row in sorted(rows, key=lambda item: item[0])]


def _capitals_over(line: Row, row: Row, line_texts: list[str], row_texts: list[str], columns: set[int]) -> bool:
    """A line in capitals right above a row whose own cells there are not ('PATAT (exclusief saus)'
    over 'Patat klein | 2.85') heads the rows below it; a name's wrapped line is set like the name."""
    def there(texts: list[str]) -> str:
        return " ".join(text for j, text in enumerate(texts) if j in columns)

    own = there(row_texts)
    return (line.top + line.bottom) / 2 < row.top and _capitals(there(line_texts)) and bool(own) \
        and not _capitals(own)


def _capitals(text: str) -> bool:
    """Words set in capitals, a remark in brackets aside ('STOKBROODJES (wit)'): three letters or
    more with case, none of them small."""
    cased = [ch for ch in BRACKETED.sub("", text) if ch.isalpha() and ch.upper() != ch.lower()]
    return len(cased) >= 3 and all(ch.isupper() for ch in cased)


def _own_product(row: Row, line: Row) -> bool:
    """A line printing a whole code of its own under a coded row that does not run on ('3MGS 280SA4'
    under '3MGS 250MA4 | 3.476,00', its price left blank) is a product, not a wrapped line of the row;
    so is one above it printing a code of the row's series. A list of codes that breaks at a comma or
    a joiner runs on; a position number stacked over the code ('POS 4910' over 'WSZRELA0101') heads it."""
    coded = [cell.text for cell in row.cells if code_score(cell.text) >= UNREAD_CODE]
    own = " ".join(cell.text for cell in line.cells)
    if code_score(own) < UNREAD_CODE or not coded or coded[-1].rstrip().endswith((*JOINERS, ",", "，", ";", "、")):
        return False
    return line.top > row.top or own[:PREFIX] == coded[0][:PREFIX]  # above it, a code of its series, not a position


def parted(a: Row, b: Row, rules: list[BBox] | tuple) -> bool:
    """Is there a rule between the two rows, under both of them?"""
    upper, lower = (a, b) if a.top <= b.top else (b, a)
    left, right = max(a.bbox[0], b.bbox[0]), min(a.bbox[2], b.bbox[2])
    return any(upper.bottom - 1 <= rule[1] <= lower.top + 1 and rule[0] <= left and rule[2] >= right
               for rule in rules)


def translation(name: str, line: str) -> bool:
    """A Latin line under a Chinese (Japanese, Korean) one: its translation."""
    return bool(CJK.search(name)) and not LATIN.search(name) and bool(LATIN.search(line)) and not CJK.search(line)
