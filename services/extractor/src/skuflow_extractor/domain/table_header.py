"""A table's header: which rows name its columns, and what each column is headed.

The header is the first row that prints header words in two cells, among the lines above a block
and its first few rows; the lines its wrapped cells run onto above and below it belong to it, and a
title or a letterhead above it belongs to neither header nor body. A header whose cells wrap onto
different lines names its columns only together. A column's header is the text the header's cells
set over it; the role it names is read from its lowest line that names one.
"""

from __future__ import annotations

import re
from itertools import takewhile

from skuflow_catalog.codes import code_score, leading_code
from skuflow_catalog.headers import is_currency, named_role
from skuflow_catalog.prices import price_of_cell

from skuflow_extractor.domain.grid import HEADER_LEADING, PROSE_SHARE, Cell, Grid, Row, is_data_row
from skuflow_extractor.domain.model_cells import listed_codes

HEADER_CELLS = 2  # header words in this many cells make a row a header
HEADER_CELL_CHARS = 24  # a longer cell is a title or a note, not a line of a column's label
LABELLED_NUMBER = re.compile(r"[:：]\s*[-+]?\d")  # 'Stk: 44,00': a label and its value
HEADER_CELL_WORDS = 4  # a header cell prints a few words; a longer cell is a description
HEADER_SCAN = 4  # a block's header may follow this many rows of title or preamble
MAX_PREAMBLE = 8  # … or up to this many, while none of them prints a code or two amounts (a letterhead)
MAX_HEADER_LINES = 5  # lines a header's cells may wrap into
OVERLAP_SHARE = 0.2  # a line overlapping the header line above by this share of its height wraps the header


def header_like(texts: list[str]) -> bool:
    """Header words in two cells, no code, and no description: a cell of many words that names no
    column ('BIZCOCHUELO MAMA COCINA VAINILLA (Presentación x10u)' beside '$/Bulto') is a product's.
    A label with its value ('Stk: 44,00') is a record's field, not a header word."""
    named = sum(1 for t in texts if t and named_role(t) and not LABELLED_NUMBER.search(t))
    return named >= HEADER_CELLS and not any(code_score(t) >= 0.9 for t in texts if t) and not any(
        len(t.split()) > HEADER_CELL_WORDS and not named_role(t) for t in texts)


def split_header(grid: Grid) -> tuple[list[Row], list[Row]]:
    """(header rows, body rows). The header is the first row that prints header words, among the rows
    above the block and its first few rows, with the lines of its wrapped cells above and below it
    (rows without product data); what stands above it (a title, a date) is neither header nor body.
    Without such a row, the rows above the block are its header if one of them prints a header word."""
    rows = [*grid.above, *grid.rows]
    scan = len(grid.above) + HEADER_SCAN
    scan += sum(1 for _ in takewhile(_preamble, rows[scan:len(grid.above) + MAX_PREAMBLE]))
    found = next((i for i, row in enumerate(rows[:scan + 1])
                  if len(row.cells) >= HEADER_CELLS and header_like(grid.texts(row))), None)
    if found is None:
        worded = any(_has_header_word(r) for r in grid.above)
        cut = next((i for i in range(len(grid.above)) if _starts_body_row(rows, i)), len(grid.above)) if worded else 0
        if cut:
            return rows[:cut], rows[cut:]
        found = _staggered_header(grid, rows[:len(grid.above) + HEADER_SCAN])
        if found is None:
            return [], rows if worded else list(grid.rows)
    first = found
    while first > 0 and _header_line(rows[first - 1], rows[first], grid) and found - first < MAX_HEADER_LINES:
        first -= 1
    last = found + 1
    while last < len(rows) and last - found < MAX_HEADER_LINES and not any(
            code_score(cell.text) >= 0.5 or leading_code(cell.text) or listed_codes(cell.text)
            for cell in rows[last].cells) and (_wraps_header(grid, rows, last) or (
            not is_data_row(rows[last]) and not _starts_body_row(rows, last))):
        last += 1
    return rows[first:last], rows[last:]


def _preamble(row: Row) -> bool:
    """A line of a letterhead or a title (an address, phone numbers, a date): no code, and not two
    amounts, as a product row of a price list prints."""
    return not any(code_score(cell.text) >= 0.5 for cell in row.cells) and sum(
        1 for cell in row.cells if price_of_cell(cell.text)) < 2


def _staggered_header(grid: Grid, rows: list[Row]) -> int | None:
    """A header whose cells wrap onto different lines ('Malzeme Kodu' centred between 'Hortum' and
    'Ölçüsü'), so that no line names two columns: consecutive lines without product data, each close
    under the one before and each naming a column in short cells, that name two columns together.
    The index of their last line."""
    def labels(row: Row) -> bool:
        return _has_header_word(row) and all(len(cell.text) <= HEADER_CELL_CHARS for cell in row.cells)

    for start in range(len(rows) - 1):
        if not labels(rows[start]):
            continue
        texts = grid.texts(rows[start])
        for end in range(start + 1, min(start + MAX_HEADER_LINES, len(rows))):
            if is_data_row(rows[end]) or not labels(rows[end]) or not _header_line(rows[end - 1], rows[end], grid):
                break
            texts = [*texts, *grid.texts(rows[end])]
            if header_like(texts):
                return end
    return None


def _wraps_header(grid: Grid, rows: list[Row], i: int) -> bool:
    """Row ``i`` is a line of the header above it: it names columns itself ('Наименование | РОЗНИЦА'
    under 'ОПТ 1 | ОПТ 2'), or it is set over the lower part of the header line above it, as the
    lines of vertically centred wrapped header cells are ('скидка 10%' under 'ОПТ 1'), and prints
    no amount (a product row's first line may overlap a header too, its price with it: '… | 3.00')."""
    row = rows[i]
    overlaps = row.top < rows[i - 1].bottom - OVERLAP_SHARE * row.height
    return header_like(grid.texts(row)) or (overlaps and not any(price_of_cell(cell.text) for cell in row.cells))


def _starts_body_row(rows: list[Row], i: int) -> bool:
    """Row ``i`` is the first line of the data row below it, not a header line: the two overlap, as
    the lines of one row's cells do when its cells wrap and are centred ('Chorlton Brewing | Hull
    Melon Lager' over 'Company | … | £3.00'), directly or through lines that overlap in turn (a name's
    top line over a centred '1' over the line with the price)."""
    while i + 1 < len(rows) and rows[i].bottom > rows[i + 1].top:
        if is_data_row(rows[i + 1]):
            return True
        i += 1
    return False


def _header_line(row: Row, below: Row, grid: Grid) -> bool:
    """A line of a wrapped header cell above the header row: no product data, close above it, and
    not a title running across the table."""
    width = grid.columns[-1][1] - grid.columns[0][0]
    title = len(row.cells) == 1 and row.bbox[2] - row.bbox[0] > PROSE_SHARE * width
    return not is_data_row(row) and not title and below.top - row.bottom <= HEADER_LEADING * row.height


def _has_header_word(row: Row) -> bool:
    return any(named_role(cell.text) for cell in row.cells)


def column_headers(grid: Grid, rows: list[Row]) -> list[str]:
    """Each column's header text: a line per header row, the cells one row sets over a column joined
    by a space (a letter-spaced '型   号' is two cells of one line)."""
    parts: list[list[str]] = [[] for _ in grid.columns]
    for n, row in enumerate(rows):
        line: list[list[str]] = [[] for _ in grid.columns]
        for cell in row.cells:
            for j, text in over_columns(grid, cell, last=n == len(rows) - 1):
                line[j].append(text)
        for j, texts in enumerate(line):
            if texts:
                parts[j].append(" ".join(texts))
    return ["\n".join(p) for p in parts]


def over_columns(grid: Grid, cell: Cell, last: bool) -> list[tuple[int, str]]:
    """The text a header cell sets over each column it spans. A cell of the header's last line that
    spans several columns with words over each of them is their headers run together (narrow
    spreadsheet cells whose text overflows: 'кол-во' 'вес ш' 'Цена руб\\шт' read as one line), so each
    column takes its own words; any other spanning cell (a group header above its columns) heads
    them all. A cell over no column (a header centred over narrow right-set amounts: 'PRECIO' over
    '0.60') heads the column whose reach holds its middle."""
    spans = grid.spans(cell) or [grid.column_of(cell)]
    if last and len(spans) > 1:
        words: dict[int, list[str]] = {}
        for word in cell.words:
            words.setdefault(grid.column_of(word), []).append(word.text)
        if set(words) == set(spans):
            return [(j, " ".join(words[j])) for j in spans]
    return [(j, cell.text) for j in spans]


def hint(header: str) -> str | None:
    """The role a column's header names: its lowest line naming one, since a group header stands above
    its columns' own ('价格' over '含税 | 不含税') and a section title may sit under the header row. A
    currency alone ('USD') heads prices."""
    return next((role for line in reversed(header.split("\n"))
                 if (role := named_role(line) or ("price" if is_currency(line) else None))), None)
