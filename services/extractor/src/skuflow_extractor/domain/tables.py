"""Table rules (A pages, and table fragments on B/C pages): one product row = one SKU.

A table is a block of aligned rows (``grid``); the rows right above it, or its first rows, are its
header when they print header words. Each column's role is decided from its header *and* its cells
(``roles``): the code column is the code-like, unique one, whatever it is headed; a package or
quantity column is never the model, even when its cells look like codes. Rows without a code are
section headings (they name the rows below them), wrapped lines of the row above, repeated header
rows or notes, never SKUs. Side-by-side tables (the header's roles repeat) are read as separate
tables. Labelled lines right above a header ('材质：陶瓷', a variant card) are shared by its rows. A
page whose table prints no header continues the previous page's table when its columns line up with
that header (seed-000 §10, BR-17): the header is inherited.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial
from itertools import pairwise, takewhile, zip_longest

from skuflow_catalog.codes import (
    ITEM_SHARE,
    article_tails,
    code_score,
    find_codes,
    is_package,
    item_number,
    leading_code,
    trailing_code,
)
from skuflow_catalog.headers import CJK, header_role, is_currency, labelled_value, named_role
from skuflow_catalog.prices import MENU_ROUND, Price, find_prices, menu_prices, price_of_cell
from skuflow_catalog.values import cell_price, is_size, prices_and_rest

from skuflow_contracts.ir import BBox, union
from skuflow_extractor.domain.drafts import SkuDraft, custom_label
from skuflow_extractor.domain.grid import (
    FULL_ROW_SHARE,
    HEADER_LEADING,
    LETTER,
    PROSE_SHARE,
    Cell,
    Grid,
    Row,
    add_header_columns,
    cell_rows,
    grids_of,
    is_data_row,
    split_at_header,
)
from skuflow_extractor.domain.roles import ColumnRole, assign_roles
from skuflow_extractor.domain.series import series_drafts
from skuflow_extractor.domain.words import Line

LIST_SEPARATORS = re.compile(r"[,，;；、]\s*")
JOINERS = "-/.–_"  # a code broken at one of these continues on the next line
HEADING_COLUMNS = 3  # in a table this wide, a row printing one cell is a section heading
INHERIT_OVERLAP = 0.5
CODE_MIN = 0.35  # a model cell scoring below this is not a code (a heading, a note, a wrapped line)
HEADER_CELLS = 2  # header words in this many cells make a row a header
HEADER_CELL_CHARS = 24  # a longer cell is a title or a note, not a line of a column's label
LABELLED_NUMBER = re.compile(r"[:：]\s*[-+]?\d")  # 'Stk: 44,00': a label and its value
HEADER_CELL_WORDS = 4  # a header cell prints a few words; a longer cell is a description
HEADER_SCAN = 4  # a block's header may follow this many rows of title or preamble
MAX_PREAMBLE = 8  # … or up to this many, while none of them prints a code or two amounts (a letterhead)
MAX_HEADER_LINES = 5  # lines a header's cells may wrap into
VERBATIM_LABELS = 3  # header cells a part must print for a word-for-word repeat to split the table
OVERLAP_SHARE = 0.2  # a line overlapping the header line above by this share of its height wraps the header
CAPTION_ALIGN = 12.0  # points: a caption's lines start this close to the table's left edge
MIN_PARTS = 3  # part numbers heading this many columns make a comparison table (one product per column)
MIN_PART = 6  # characters of a whole part number stacked over another
MAX_HEAD_LINES = 3  # lines a part number may wrap into
PREFIX = 3  # characters part numbers of one series share
FOOTNOTE = re.compile(r"\(\d\)$|[¹²³]$")  # a footnote mark printed after a part number
CARD_CODE = 0.9  # code evidence of each code in a row of product cards
SPACED_LETTERS = 4  # cells of one letter each that make a row a title set letter by letter
ACROSS = 0.9  # a rule this share of a grid's width long runs across its side-by-side tables
FRAME_RULES = 2  # rules across them all that a title bar or a frame draws
RULE_JOIN = 3.0  # points: rules this close end to end are one rule (a row's cell borders drawn one by one)
CARD_ROWS = 4  # rows of a grid of product cards read column by column (price, name, size)
LIST_EVIDENCE = 0.9  # code evidence of codes listed in one cell
LISTED_LENGTH = 0.5  # codes listed apart by spaces are at least this share of the longest one's length
LEADING_EVIDENCE = 0.8  # code evidence of a code that starts a cell with a description after it
TAG_ROWS = 3  # cells a trailing flag must end to be a flag and not part of a code
NAMED_EVIDENCE = 0.6  # … of a plain number under a header naming the code column
NAME_EVIDENCE = 0.5  # … of a row keyed by its name, with no code
DIGIT_GROUPS = re.compile(r"\d{2,6}(?: \d{2,6}){1,4}")  # an article number printed in groups of digits
# a code of capitals alone, its parts joined ('RSMW', 'NN-LLED-MODULE-DEVILEYES-SEIN'), read as one under a header
# naming the code
LETTER_CODE = re.compile(r"[A-Z]{3,12}|[A-Z]{2,12}(?:[-/.][A-Z]{1,12})+")
NAMED_CODE_MAX = 12  # characters of a plain cell read as a code under a header naming the code column
RULED_MIN = 3  # rules inside the body that make a table ruled row by row
MAX_BAND_LINES = 10  # lines one ruled row may hold; more means the rules group rows
MENU_NAMES = 0.8  # share of a column's cells holding letters that make it a menu's names
LATIN = re.compile(r"[A-Za-z]")
GROUP_ROWS = 3  # … as do this many lines between two rules that each fill every column
UNDERLINE_SLACK = 3.0  # points: an underline ends within this of its text
BAND_REACH = 2.5  # row heights (per line joined) a wrapped line may lie from the centre of its product row
# row heights (the lower of the two: a heading set larger wraps nothing): a codeless row closer than this
# under an SKU row wraps it
CONTINUATION_GAP = 0.8
SPARSE = 0.3  # share of rows a menu column prints in at least; a sparser one is a legend or a note
PRICED_ROWS = 3  # rows of names beside currency-marked amounts that make an unheaded block a price list
PRICED_SHARE = 0.8  # … of its rows printing a currency with the amount
RECORD_TOUCH, RECORD_APART = 0.25, 1.0  # row heights: lines of one record touch, records stand apart
RECORDS, RECORD_SHARE = 3, 0.6  # records of one number of lines (and their share) that make rows records
UNREAD_CODE = 0.75  # a cell scoring this as a code prints one
LISTED_ROWS = 3  # names numbered as a list's lines that make the numbers no part of the names
GOODS_COLUMNS = {"size", "package", "weight", "quantity", "unit", "measure"}  # what goods are sold in or as
GOODS_CODES = 0.5  # code evidence of a column that keeps a table of codes from being read by its names
DISTINCT_NAMES = 0.6  # share of a names column's cells that differ from each other
SHORT_LABEL = 4  # characters: a column of cells this short on average holds labels, not names


@dataclass(frozen=True)
class TableHeader:
    """A table's columns (role, left, right, header text), passed to the next page of the table."""

    columns: tuple[tuple[str | None, float, float, str], ...]

    def to_json(self) -> dict:
        return {"columns": [list(c) for c in self.columns]}

    @classmethod
    def from_json(cls, data: dict) -> TableHeader:
        return cls(tuple((c[0], float(c[1]), float(c[2]), str(c[3]) if len(c) > 3 else "")
                         for c in data["columns"] if len(c) >= 3))

    def headers_for(self, grid: Grid) -> list[str] | None:
        """This table's header texts laid over ``grid``'s columns, when at least two of them line up
        (each overlapping half of the narrower of the two columns)."""
        texts, matched = [], 0
        for left, right in grid.columns:
            found = next((text or role or "" for role, x0, x1, text in self.columns
                          if min(x1, right) - max(x0, left) >= INHERIT_OVERLAP * min(x1 - x0, right - left)), "")
            matched += bool(found)
            texts.append(found)
        return texts if matched >= 2 else None


@dataclass
class Table:
    header: TableHeader
    skus: list[SkuDraft]
    lines: set[int]
    inherited: bool
    bottom: float
    roles: list[ColumnRole] = field(default_factory=list)

    @property
    def keyed_by_code(self) -> bool:
        return any(role.role == "model" for role in self.roles)

    @property
    def inferred(self) -> bool:
        """Read without a header of its own or inherited: its columns come from its cells alone."""
        return not self.inherited and not any(text for *_, text in self.header.columns)


def _header_like(texts: list[str]) -> bool:
    """Header words in two cells, no code, and no description: a cell of many words that names no
    column ('BIZCOCHUELO MAMA COCINA VAINILLA (Presentación x10u)' beside '$/Bulto') is a product's.
    A label with its value ('Stk: 44,00') is a record's field, not a header word."""
    named = sum(1 for t in texts if t and named_role(t) and not LABELLED_NUMBER.search(t))
    return named >= HEADER_CELLS and not any(code_score(t) >= 0.9 for t in texts if t) and not any(
        len(t.split()) > HEADER_CELL_WORDS and not named_role(t) for t in texts)


def _split_header(grid: Grid) -> tuple[list[Row], list[Row]]:
    """(header rows, body rows). The header is the first row that prints header words, among the rows
    above the block and its first few rows, with the lines of its wrapped cells above and below it
    (rows without product data); what stands above it (a title, a date) is neither header nor body.
    Without such a row, the rows above the block are its header if one of them prints a header word."""
    rows = [*grid.above, *grid.rows]
    scan = len(grid.above) + HEADER_SCAN
    scan += sum(1 for _ in takewhile(_preamble, rows[scan:len(grid.above) + MAX_PREAMBLE]))
    found = next((i for i, row in enumerate(rows[:scan + 1])
                  if len(row.cells) >= HEADER_CELLS and _header_like(grid.texts(row))), None)
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
            code_score(cell.text) >= 0.5 or leading_code(cell.text) or _listed_codes(cell.text)
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
            if _header_like(texts):
                return end
    return None


def _wraps_header(grid: Grid, rows: list[Row], i: int) -> bool:
    """Row ``i`` is a line of the header above it: it names columns itself ('Наименование | РОЗНИЦА'
    under 'ОПТ 1 | ОПТ 2'), or it is set over the lower part of the header line above it, as the
    lines of vertically centred wrapped header cells are ('скидка 10%' under 'ОПТ 1'), and prints
    no amount (a product row's first line may overlap a header too, its price with it: '… | 3.00')."""
    row = rows[i]
    overlaps = row.top < rows[i - 1].bottom - OVERLAP_SHARE * row.height
    return _header_like(grid.texts(row)) or (overlaps and not any(price_of_cell(cell.text) for cell in row.cells))


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


def _column_headers(grid: Grid, rows: list[Row]) -> list[str]:
    """Each column's header text: a line per header row, the cells one row sets over a column joined
    by a space (a letter-spaced '型   号' is two cells of one line)."""
    parts: list[list[str]] = [[] for _ in grid.columns]
    for n, row in enumerate(rows):
        line: list[list[str]] = [[] for _ in grid.columns]
        for cell in row.cells:
            for j, text in _over_columns(grid, cell, last=n == len(rows) - 1):
                line[j].append(text)
        for j, texts in enumerate(line):
            if texts:
                parts[j].append(" ".join(texts))
    return ["\n".join(p) for p in parts]


def _over_columns(grid: Grid, cell: Cell, last: bool) -> list[tuple[int, str]]:
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


def _segments(roles_hint: list[str | None], labels: list[str]) -> list[range]:
    """Side-by-side tables: when the header names the model (or, naming no model, the name) in several
    columns and repeats itself after each (the same other roles, or nothing else in parts of one
    width), each starts a table; a part may lack a column the other prints ('НАИМЕНОВАНИЕ | Вес | Цена'
    beside 'НАИМЕНОВАНИЕ | Длина | Вес | Цена').
    Two code columns in a header that does not repeat ('NST | Model | price') are one table. A header
    that repeats whole in parts of one width ('品項 | 價格 | 品項 | 價格'), by its roles or word for
    word (``labels``: the header line that names the columns), is side-by-side tables too."""
    key = "model" if "model" in roles_hint else "product_name"
    starts = [j for j, role in enumerate(roles_hint) if role == key]
    whole = [range(len(roles_hint))]
    if len(starts) < 2:
        return _repeating(roles_hint) or _verbatim(labels) or whole
    offset = starts[0]
    # the columns before the first code repeat before each (a row number per part), or head the rows of
    # them all once ('kW' beside three 'Typ | USD' parts): then each part starts at its code
    shifted = all(roles_hint[s - offset:s] == roles_hint[:offset] for s in starts[1:])
    bounds = [s - offset for s in starts] if shifted else [0, *starts[1:]]
    bounds.append(len(roles_hint))
    parts = [range(max(a, 0), b) for a, b in pairwise(bounds)]
    others = [{roles_hint[j] for j in part} - {None, key} for part in parts]
    if all(others[0] & other for other in others[1:]):
        return parts
    alike = not any(others) and len({len(part) for part in parts}) == 1
    return parts if alike else whole


def _repeating(roles_hint: list[str | None]) -> list[range] | None:
    """Parts of one width whose named roles agree column by column, each naming a key (a name or a
    code) and a price, where one part does not name a role twice. A column a part leaves unnamed (a
    header OCR misread) agrees with anything, but some column is named in two parts: 'Modell | … |
    Preis' halves into parts naming nothing alike, which is one table, not two. The last part may
    lack columns (but keeps two): its last column ran into the amounts before it, no gutter between."""
    width = len(roles_hint)
    for size in range(2, width - 1):
        if 0 < width % size < 2:
            continue
        parts = [roles_hint[start:start + size] for start in range(0, width, size)]
        columns = [{role for role in column if role} for column in zip_longest(*parts)]
        named = [role for column in columns for role in column]
        repeated = any(sum(1 for role in column if role) >= 2 for column in zip_longest(*parts))
        if repeated and all(len(column) <= 1 for column in columns) and len(named) == len(set(named)) \
                and "price" in named and {"model", "product_name"} & set(named):
            return [range(start, min(start + size, width)) for start in range(0, width, size)]
    return None


def _verbatim(labels: list[str]) -> list[range] | None:
    """Parts of one width whose header lines read the same, column for column ('Продукт | Единица |
    PV | Retail (€) | Whls (€)' twice), naming a price: the same table set twice (each part must
    still find its key column among its own cells). The first column may name each part's kind
    instead ('PRETO | VALORES | C/100 UN' beside 'CORES | VALORES | C/100 UN')."""
    width = len(labels)
    for size in range(2, width // 2 + 1):
        if width % size:
            continue
        parts = [[" ".join(t.split()).casefold() for t in labels[start:start + size]]
                 for start in range(0, width, size)]
        if all(part[1:] == parts[0][1:] and bool(part[0]) == bool(parts[0][0]) for part in parts) \
                and sum(bool(t) for t in parts[0]) >= VERBATIM_LABELS \
                and "price" in {named_role(t) for t in parts[0][1:]}:
            return [range(start, start + size) for start in range(0, width, size)]
    return None


def _listed_codes(text: str) -> list[str]:
    """Several codes listed in one cell ('N32G430C6L7, N32G430K6L7'), each an SKU of the row. A list
    wrapped over lines loses its separator at the line end: codes that stand apart by a space and are
    each whole are listed too ('N32G430K6L7 N32G430C6Q7'), a code with a space in it is not ('TB 40/120')."""
    parts = [p.strip() for p in LIST_SEPARATORS.split(text) if p.strip()]
    parts = [w for p in parts for w in (p.split() if _spaced_codes(p) else [p])]
    return parts if len(parts) >= 2 and all(code_score(p) >= 0.75 for p in parts) else []


def _spaced_codes(text: str) -> bool:
    """Whole codes standing apart by spaces, none broken at a joiner ('HTPA15S2M040- K-P3' is one
    code wrapped at its hyphen), of like length and starting alike, as codes of one series do: a short
    word before a long one is the series the code prints apart ('H3 Pro-20.0-E'), and a code whose size
    prints apart goes on after the space ('NN-LLED-SHROUD-5D-1.5 INCH-RGB-SD1')."""
    words = text.split()
    return all(code_score(w) >= 0.75 and w[-1] not in JOINERS and w[0] not in JOINERS for w in words) \
        and min(map(len, words)) >= LISTED_LENGTH * max(map(len, words)) and len({w[0] for w in words}) == 1


def _model_of(text: str, column: ColumnRole, tails: frozenset[str] = frozenset(),
              priced: bool = False, series: frozenset[str] = frozenset()) -> tuple[list[str], float] | None:
    """The codes a model cell prints and how code-like they are: several listed, the whole cell, the
    code it starts with, or the one code in it; under a header that names the column as the code, any
    short cell with a digit ('12', '0457'), digits in groups ('618 009 227 221', however like a
    phone number it looks), or, in a row with a price, one word in capitals ('RSMW', or in parts:
    'NN-LLED-MODULE-DEVILEYES-SEIN'; a heading in capitals prints none). A designation ('KOSTAL
    PIKO 17') is the whole cell."""
    named = column.named
    if column.designation:
        return [" ".join(text.split())], NAMED_EVIDENCE
    if text.split()[:1] and text.split()[0] not in series and (listed := _listed_codes(text)):
        return listed, LIST_EVIDENCE
    if (named_code := _behind_a_name(text)) is not None:
        return [named_code], code_score(named_code)
    if (score := code_score(text)) >= CODE_MIN:
        return [text], score
    if (lead := leading_code(text, tails)) is not None:
        return [lead], LEADING_EVIDENCE
    if named and (number := item_number(text)) is not None:
        return [number], NAMED_EVIDENCE
    if named and any(ch.isdigit() for ch in text) and (len(text) <= NAMED_CODE_MAX or DIGIT_GROUPS.fullmatch(text)):
        return [text], NAMED_EVIDENCE
    if named and priced and LETTER_CODE.fullmatch(text.strip()):
        return [text.strip()], NAMED_EVIDENCE
    found = find_codes(text)
    return ([found[0]], code_score(found[0])) if len(found) == 1 else None


def _behind_a_name(text: str) -> str | None:
    """The one code of a model cell that a family's name stands before ('Amalfi AM15', 'Adirondack -
    AK25VT', 'Café CF14': the name of the group its first row opens); a designation in capitals
    ('SMA STP 10000TL-20') is one code."""
    found = find_codes(text)
    if len(found) != 1 or code_score(found[0]) <= code_score(text):
        return None
    rest = text.replace(found[0], " ").split()
    return found[0] if rest and all(_family_word(w) or w in "-–—:" for w in rest) else None


def _family_word(word: str) -> bool:
    """A name's word ('Amalfi'), not letters of a designation in capitals ('SMA STP 10000TL-20')."""
    return len(word) >= 3 and word.isalpha() and not word.isupper()


def _evidence(code: float, role: float, read: float) -> float:
    """An SKU row's evidence: how code-like its code is, how surely its column is the code (or name)
    column, and how surely OCR read that cell."""
    return round((0.5 + 0.5 * code) * (0.7 + 0.3 * min(1.0, role)) * read, 3)


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
        return any(grid.column_of(w) == j for w in cell.words)

    spread: dict[int, Row] = {}
    for band in _bands(rows, cuts):
        holders = [row for row in band if any(in_column(cell) for cell in row.cells)]
        if len(band) < 2 or not holders or len(holders) == len(band):
            continue
        words = tuple(w for row in holders for cell in row.cells for w in cell.words if grid.column_of(w) == j)
        text, left, right = " ".join(w.text for w in words), min(w.bbox[0] for w in words), max(
            w.bbox[2] for w in words)
        for row in band:
            cells = [cell for cell in row.cells if not in_column(cell)]
            cells.append(Cell(text, (left, row.top, right, row.bottom), words))
            source = holders if any(row is h for h in holders) else [row, *holders]
            spread[id(row)] = Row(tuple(sorted(cells, key=lambda c: c.bbox[0])), frozenset().union(
                *(r.lines for r in source)), row.height, tuple(pair for r in source for pair in r.read))
    return [spread.get(id(row), row) for row in rows]


def _records(body: list[Row]) -> list[Row]:
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
    body = _records(body)
    fills = [_filled(grid, row, columns) for row in body]
    widest = max((len(f) for f in fills), default=0)
    main = [n for n, f in enumerate(fills) if len(f) >= max(2, FULL_ROW_SHARE * widest)]
    if not main:
        return body
    usual = {j for j in columns if sum(j in fills[n] for n in main) * 2 >= len(main)}
    printed = [" ".join(grid.texts(row)) for row in body]
    groups: dict[int, list[int]] = {n: [n] for n in main}
    for n, fill in enumerate(fills):
        if n in groups or not fill or not fill <= usual:
            continue
        centre = (body[n].top + body[n].bottom) / 2
        joinable = [m for m in main
                    if not _parted(body[m], body[n], rules) and not _translation(printed[m], printed[n])]
        if not joinable:
            continue
        nearest = min(joinable, key=lambda m: abs((body[m].top + body[m].bottom) / 2 - centre))
        if abs((body[nearest].top + body[nearest].bottom) / 2 - centre) <= BAND_REACH * body[nearest].height * max(
                1, len(groups[nearest])) and not _own_product(body[nearest], body[n]):
            groups[nearest].append(n)
    joined = {n for members in groups.values() for n in members}
    rows = [(n, _merge([body[m] for m in sorted(groups[n])])) for n in main]
    rows += [(n, row) for n, row in enumerate(body) if n not in joined]
    return [row for _, row in sorted(rows, key=lambda item: item[0])]


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


def _parted(a: Row, b: Row, rules: list[BBox] | tuple) -> bool:
    """Is there a rule between the two rows, under both of them?"""
    upper, lower = (a, b) if a.top <= b.top else (b, a)
    left, right = max(a.bbox[0], b.bbox[0]), min(a.bbox[2], b.bbox[2])
    return any(upper.bottom - 1 <= rule[1] <= lower.top + 1 and rule[0] <= left and rule[2] >= right
               for rule in rules)


def recurring_tags(cells: list[str]) -> frozenset[str]:
    """Words that end many code cells without being codes ('SG 5.0RT -SALE%', 'H3-5.0-Smart -SALE%'):
    a flag printed beside the code, not part of it. A code repeated down the rows is no tag."""
    ends = Counter(cell.split()[-1] for cell in cells if len(cell.split()) >= 2)
    return frozenset(word for word, count in ends.items() if count >= TAG_ROWS and code_score(word) < 0.5
                     and not any(ch.isalnum() for ch in word[:1]))


def series_words(cells: list[str]) -> frozenset[str]:
    """A word that starts many code cells followed by more ('3MGS 160MA2', '3MGS 315SA4'): the series
    the codes of the column print apart, part of each code, never a code listed on its own."""
    starts = Counter(cell.split()[0] for cell in cells if len(cell.split()) >= 2)
    coded = sum(1 for cell in cells if len(cell.split()) >= 2)
    return frozenset(word for word, count in starts.items() if count >= TAG_ROWS and 2 * count >= coded)


def _untagged(text: str, tags: frozenset[str]) -> str:
    words = text.split()
    return " ".join(words[:-1]) if len(words) >= 2 and words[-1] in tags else text


def _read_rows(grid: Grid, body: list[Row], columns: range, roles: list[ColumnRole],
               rules: list[BBox] | tuple = (), goods: bool = False) -> tuple[list[SkuDraft], set[int]]:
    """Body rows → SKUs; codeless rows name the rows below them, wrap the row above (unless a rule
    parts them), or are skipped. In a table of ``goods`` (``_named_goods``) a name printed with what it
    is sold as is an SKU without a price."""
    by_role = {r.role: j for j, r in zip(columns, roles, strict=True) if r.role not in (None, "custom", "price_extra")}
    model, name = by_role.get("model"), by_role.get("product_name")
    skus: list[SkuDraft] = []
    used: set[int] = set()
    family: str | None = None
    last_row: Row | None = None
    stacked = model is not None and roles[model - columns.start].stacked
    model_cells = [_texts(grid, row, model, stacked)[model] for row in body] if model is not None else []
    tags, tails, series = recurring_tags(model_cells), article_tails(model_cells), series_words(model_cells)
    for row in body:
        texts = _texts(grid, row, model, stacked)
        own = [texts[j] for j in columns]
        filled = [t for t in own if t]
        if not filled:
            continue
        if _repeated_header(own):
            used |= row.lines
            continue
        priced = any(cell_price(texts[j], role.decimal_mark) for j, role in zip(columns, roles, strict=True)
                     if role.role in ("price", "price_extra"))
        # a code printed alone under a product row is a product of its own (its cells left blank), not a heading
        alone = model is not None and last_row is not None and not stacked and texts[model] == filled[0] \
            and code_score(filled[0]) >= UNREAD_CODE
        if len(filled) == 1 and len(columns) >= HEADING_COLUMNS and not priced and not alone:
            family = filled[0]  # a section heading across the table names the rows below it
            used |= row.lines
            continue
        found = _model_of(_untagged(texts[model], tags), roles[model - columns.start], tails, priced, series) \
            if model is not None else None
        key = model
        if model is None and name is not None and (trailing := trailing_code(texts[name])):
            found, key = ([trailing], LEADING_EVIDENCE), name  # no code column: the code ends the name
        code = found[0][0] if found else None
        sold = priced or (goods and len(filled) >= 2)
        if code or (name is not None and texts[name] and sold and (model is None or skus)):
            # a codeless row above the first coded one is the table's title ('Lista de Precios | 4'), not a product
            key = key if code else name
            keyed = roles[key - columns.start].scores["model" if key == model else "product_name"]
            key_lines = {w.line for c in row.cells for w in c.words if grid.column_of(w) == key}
            evidence = _evidence(found[1] if found else NAME_EVIDENCE, keyed, row.confidence(key_lines))
            codes = found[0] if found else [None]
            for listed in codes:
                draft = _row_draft(texts, columns, roles, row)
                draft.evidence = evidence
                if listed:
                    draft.set("model", listed)
                    rest = texts[key].strip()[len(listed):].lstrip(".．、").strip(" ,-–")
                    if rest and key == model and texts[key].strip().startswith(listed) and len(codes) == 1:
                        draft.set("product_name", rest)
                if family and "product_name" not in draft.attributes:
                    draft.set("product_name", family, "section_heading")
                skus.append(draft)
            used |= row.lines
            last_row = row
        elif skus and last_row is not None and row.top - last_row.bottom < CONTINUATION_GAP * min(
                row.height, last_row.height) \
                and not priced and len(filled) <= 2 and not _parted(last_row, row, rules):
            _wrap(skus[-1], texts, columns, roles)
            used |= row.lines
            last_row = row
        elif len(filled) == 1 and not is_data_row(row):
            family = filled[0]
            used |= row.lines
    return _unnumbered(skus), used


def _texts(grid: Grid, row: Row, model: int | None, stacked: bool) -> list[str]:
    """The row's text per column; a stacked model cell ('POS 4910' over 'WSZRELA0101', under 'Position'
    over 'Artikel') gives what it prints under its top line."""
    texts = grid.texts(row)
    if stacked and model is not None:
        words = [w for cell in row.cells for w in cell.words if grid.column_of(w) == model]
        top = min((w.bbox[1] for w in words), default=0.0)
        lower = [w.text for w in words if w.bbox[1] - top > (w.bbox[3] - w.bbox[1]) / 2]
        texts[model] = " ".join(lower) or texts[model]
    return texts


def _unnumbered(skus: list[SkuDraft]) -> list[SkuDraft]:
    """Names numbered as a list's lines ('1.金黃細薯', '2.地瓜薯條'): the numbers count the lines and
    are no part of the names. Most names print one, and no number twice."""
    names = [sku.attributes.get("product_name", "") for sku in skus]
    numbers = [n for n in map(item_number, names) if n]
    if len(numbers) < LISTED_ROWS or len(numbers) < ITEM_SHARE * len(names) or len(set(numbers)) < len(numbers):
        return skus
    for sku, name in zip(skus, names, strict=True):
        if number := item_number(name):
            sku.attributes["product_name"] = name.strip()[len(number):].lstrip(".．、 ")
    return skus


def _repeated_header(texts: list[str]) -> bool:
    """A header row printed again (on each page, after each section): header words in its cells and
    no cell as long as a description. A product row whose cells hold a header word by chance ('Hull
    Melon Lager | Lager brewed using Hull Melon hops': 'Lager' is stock in Swedish) is not one."""
    return _header_like(texts) and all(len(text.split()) <= HEADER_CELL_WORDS for text in texts)


def _row_draft(texts: list[str], columns: range, roles: list[ColumnRole], row: Row) -> SkuDraft:
    draft = SkuDraft(origin="table_row", boxes=[cell.bbox for cell in row.cells])
    for j, role in zip(columns, roles, strict=True):
        text = texts[j]
        if not text or role.role in (None, "model"):
            continue
        if role.role == "price":
            draft.set_price(text, role.decimal_mark)
        elif role.role in ("price_extra", "custom"):
            draft.custom.setdefault(custom_label(role.header) or f"column_{j + 1}", text)
            if role.role == "price_extra":  # the price column (the leftmost) left empty: the next price printed
                draft.set_price(text, role.decimal_mark)
        else:
            draft.set(role.role, text)
    return draft


def _wrap(draft: SkuDraft, texts: list[str], columns: range, roles: list[ColumnRole]) -> None:
    """A wrapped line of the row above: its text continues that row's cells. A Latin line under a
    Chinese name is its translation ('紅茶' over 'Black Tea'), not more of it."""
    for j, role in zip(columns, roles, strict=True):
        if texts[j] and role.role in ("product_name", "size", "color", "material"):
            current = draft.attributes.get(role.role)
            if current and _translation(current, texts[j]):
                continue
            draft.attributes[role.role] = f"{current} {texts[j]}" if current else texts[j]


def _translation(name: str, line: str) -> bool:
    """A Latin line under a Chinese (Japanese, Korean) one: its translation."""
    return bool(CJK.search(name)) and not LATIN.search(name) and bool(LATIN.search(line)) and not CJK.search(line)


def _part(text: str) -> bool:
    """One token of a part number, whole or wrapped ('HC32F4', '60PEHB', 'S'; 'HC32L136K8TA-': a part
    number broken after its dash)."""
    core = text.removesuffix("-")
    return " " not in text and bool(core) and not any(ch.islower() for ch in text) and (
        code_score(core) >= 0.5 or (core.replace("/", "").isalnum() and len(core) <= 8))


def _lettered(part: str) -> bool:
    return any(ch.isalpha() for ch in part)


def _whole(part: str) -> bool:
    return code_score(part) >= 0.75 and len(part) >= MIN_PART


def _head(text: str) -> list[str] | None:
    """The parts a column head's line prints: one token, or whole part numbers side by side (two
    sub-columns under one head: 'N32G430F6S7 N32G430F8S7')."""
    tokens = text.split()
    if not tokens or not all(_part(t) for t in tokens) or (len(tokens) > 1 and not all(map(_whole, tokens))):
        return None
    return tokens


def _part_numbers(lines: list[list[str]]) -> list[str]:
    """A column head's part numbers: stacked whole codes, or one code wrapped over its lines. A
    footnote mark ends a part number without being part of it ('N32G430F6S7-1(1)')."""
    parts = [FOOTNOTE.sub("", part) for line in lines for part in line]
    if (len(parts) > 1 and all(_whole(part) and part[:PREFIX] == parts[0][:PREFIX] for part in parts)) or any(
            len(line) > 1 for line in lines):
        return parts
    joined = "".join(parts)
    return [joined] if code_score(joined) >= 0.5 or code_score(parts[0]) >= 0.5 else []


def _transposed(grid: Grid) -> Table | None:
    """A comparison table that prints one product per column: part numbers head the columns (often
    wrapped over two lines), the first column names what each row gives. Each column is an SKU."""
    rows = [*grid.above, *grid.rows]
    for i, row in enumerate(rows[:len(grid.above) + HEADER_SCAN]):
        if drafts := series_drafts(rows, i):
            return _column_table(grid, drafts, rows[i:])
        if drafts := _card_row(grid, rows, i):
            return _column_table(grid, drafts, rows[i:i + 2])
        texts = grid.texts(row)
        heads = {j: [parts] for j, t in enumerate(texts) if j > 0 and (parts := _head(t))}
        firsts = [t[0][0] for t in heads.values() if _lettered(t[0][0])]  # amounts ('14900 | 14,900') head none
        if len(firsts) < MIN_PARTS or not _shared_prefix(firsts):
            continue
        k = i + 1
        body: list[Row] = []
        while k < len(rows) and k - i <= MAX_HEAD_LINES:
            more = grid.texts(rows[k])
            if more[0] and not any(more[1:]):  # a row label set between the part number's lines
                body.append(rows[k])
            elif more[0] or not any(more):
                break
            else:
                parts = {j: _head(t) for j, t in enumerate(more) if t}
                if not all(j in heads and found for j, found in parts.items()):
                    break
                for j, found in parts.items():
                    heads[j].append(found)
            k += 1
        body += rows[k:]
        drafts = []
        for j, lines in sorted(heads.items()):
            for code in _part_numbers(lines):
                draft = SkuDraft(origin="table_row", boxes=[cell.bbox for r in rows[i:k] for cell in r.cells
                                                            if grid.spans(cell) == [j]] or [row.bbox])
                draft.set("model", code)
                for r in body:
                    values = grid.texts(r)
                    if values[0] and values[j]:
                        draft.custom.setdefault(custom_label(values[0]), values[j])
                drafts.append(draft)
        if drafts:
            return _column_table(grid, drafts, rows[i:])
    return None


def _card_row(grid: Grid, rows: list[Row], i: int) -> list[SkuDraft]:
    """Product cards set side by side, read as a grid: row ``i`` prints codes of one series in three
    columns or more, the first column among them (no column labels the rows, as in a comparison
    table), and nothing else code-like; the row below gives each card's name."""
    texts = grid.texts(rows[i])
    scores = [code_score(t) for t in texts]
    coded = [j for j, t in enumerate(texts) if scores[j] >= CARD_CODE and not is_package(t)]
    if (len(coded) < MIN_PARTS or 0 not in coded or not _shared_prefix([texts[j] for j in coded])
            or any(score >= CODE_MIN for j, score in enumerate(scores) if j not in coded)):
        return []
    names = grid.texts(rows[i + 1]) if i + 1 < len(rows) else [""] * len(texts)
    drafts = []
    for j in coded:
        draft = SkuDraft(origin="table_row", boxes=[c.bbox for c in rows[i].cells if grid.spans(c) == [j]] or [
            rows[i].bbox])
        draft.set("model", texts[j])
        if names[j] and code_score(names[j]) < CODE_MIN:
            draft.set("product_name", names[j])
        drafts.append(draft)
    return drafts


def _prices_alone(text: str) -> Price | None:
    """The first price of a cell that prints prices and nothing else ('2元/盒,28元/箱': by the box and
    by the case)."""
    if (found := cell_price(text)) is not None:
        return found
    prices, rest = prices_and_rest(text)
    return prices[0] if prices and not rest.strip(" ,，;；、/") else None


def _name_alone(text: str) -> bool:
    return bool(LETTER.search(text)) and not find_prices(text) and cell_price(text) is None and not is_size(
        text) and code_score(text) < CODE_MIN


def _card_columns(grid: Grid) -> Table | None:
    """Product cards set side by side, each a price over (or under) a name and a size ('2元/盒,28元/箱'
    over '蜂蜜柚子茶' over '(250mL×16)'), read as a grid of a few rows: rows of prices alone and one
    row of two names or more, each name in a priced column. Each column is a product; a row of sizes
    alone gives its size. Cards with codes are read by their codes (``_card_row``)."""
    rows = grid.rows
    if not 2 <= len(rows) <= CARD_ROWS:
        return None
    texts = [grid.texts(row) for row in rows]
    prices: dict[int, Price] = {}
    names: list[list[str]] = []
    for row in texts:
        filled = {j: t for j, t in enumerate(row) if t}
        if any(code_score(t) >= CODE_MIN for t in filled.values()):
            return None
        found = {j: price for j, t in filled.items() if (price := _prices_alone(t)) is not None}
        if len(found) == len(filled) >= 1 and not prices.keys() & found.keys():
            prices |= found
        elif len(filled) >= 2 and all(_name_alone(t) for t in filled.values()):
            names.append(row)
    columns = [j for j, t in enumerate(names[0]) if t] if len(names) == 1 else []
    if len(columns) < 2 or not set(columns) <= prices.keys():
        return None
    sizes = next((row for row in texts if (filled := [t for t in row if t]) and all(is_size(t) for t in filled)), None)
    drafts = []
    for j in columns:
        draft = SkuDraft(origin="table_row", boxes=[c.bbox for row in rows for c in row.cells if grid.spans(c) == [j]])
        draft.set("product_name", names[0][j])
        draft.set("price", prices[j].raw)
        draft.raw["price"] = prices[j].raw
        if sizes and sizes[j]:
            draft.set("size", sizes[j])
        drafts.append(draft)
    return _column_table(grid, drafts, rows)


def _column_table(grid: Grid, drafts: list[SkuDraft], rows: list[Row]) -> Table:
    """A comparison table (one product per column) read from ``rows``."""
    header = TableHeader(tuple((None, left, right, "") for left, right in grid.columns))
    return Table(header, drafts, {ln for r in rows for ln in r.lines}, False, max(r.bottom for r in rows))


def _shared_prefix(codes: list[str]) -> bool:
    """Part numbers of one series share their first characters ('HC32F4…', 'PY32F0…')."""
    prefixes = [code[:PREFIX] for code in codes]
    return max(prefixes.count(p) for p in prefixes) * 2 >= len(codes)


def _read_grid(grid: Grid, inherit: Callable[[], TableHeader | None], rules: list[BBox] | tuple = ()) -> list[Table]:
    """The grid's tables; ``inherit`` gives the header a block without its own continues (asked only then)."""
    if (transposed := _transposed(grid) or _card_columns(grid)) is not None:
        return [transposed]
    header_rows, body = _split_header(grid)
    grid = add_header_columns(split_at_header(grid, header_rows), header_rows)
    headers = _column_headers(grid, header_rows)
    inherited = False
    if not any(headers) and (above := inherit()) is not None and (laid := above.headers_for(grid)):
        headers, inherited = laid, True
    hints = [_hint(h) for h in headers]
    visual, ruled = body, ruled_rows(grid, body, rules)
    body = ruled or table_rows(grid, visual, range(len(grid.columns)), rules)
    texts = [grid.texts(row) for row in body]
    cells = _product_rows(texts)
    tables = []
    labels = next((texts for row in header_rows if _header_like(texts := grid.texts(row))), [""] * len(headers))
    keyed = {"model", "product_name", "price"} & set(hints)
    menus, round_share = (None if keyed else _menu_parts([[row[j] for row in cells] for j in range(len(headers))])) \
        or (None, MENU_ROUND)
    if menus:  # lines over side-by-side menus that name no key column ('包子類 | 饅頭類') are their titles
        headers = [""] * len(headers)
    parts = menus or _segments(hints, labels)
    if len(parts) == 1 and (inner := _inner_header(grid, visual, hints)) is not None:
        parts, headers = inner[0], [h or inner[1][j] for j, h in enumerate(headers)]
    if len(parts) == 1:
        parts = _ruled_parts(grid, visual, rules) or parts
    records = _records(visual) if len(parts) > 1 else visual  # records span the parts: their rhythm is the page's
    for columns in parts:
        if len(parts) > 1:  # side by side: each part's rows, where the other part has ended
            own = _part_rows(grid, records, columns)
            body = ruled_rows(grid, own, rules, columns) or table_rows(grid, own, columns, rules)
            texts = [grid.texts(row) for row in body]
            cells = _product_rows(texts, columns)
        column_cells = [[row[j] for row in cells] for j in columns]
        roles = assign_roles([headers[j] for j in columns], column_cells)
        if not any(headers[j] for j in columns):
            roles = _nearest_names(_sizes_sold(_menu_columns(roles, column_cells, round_share)), column_cells,
                                   round_share)
        chosen = {r.role for r in roles}
        goods = "model" not in chosen and "price" not in chosen and _named_goods([headers[j] for j in columns], roles,
                                                                               len(body))
        if "model" not in chosen and not {"product_name", "price"} <= chosen and not goods:
            continue
        labels: list[Row] = []
        if not any(headers[j] for j in columns):
            if not menus and not _products_without_header(roles, [[row[j] for j in columns] for row in texts]):
                continue  # no header, and neither codes nor priced names: nothing says these rows are products
            if "model" not in chosen:
                roles, labels = _price_labels(grid, body, columns, roles)
        skus, used = _read_rows(grid, [row for row in body if row not in labels], columns, roles, rules, goods)
        used |= {ln for row in labels for ln in row.lines}
        if not skus:
            continue
        left, right = grid.columns[columns.start][0], grid.columns[columns.stop - 1][1]
        header = TableHeader(tuple((r.role, grid.columns[j][0], grid.columns[j][1], headers[j])
                                   for j, r in zip(columns, roles, strict=True)))
        lines = used | {ln for row in header_rows for ln in row.lines if _inside(row, left, right)}
        tables.append(Table(header, skus, lines, inherited, max(row.bottom for row in body), roles))
    return tables


def _named_goods(headers: list[str], roles: list[ColumnRole], rows: int) -> bool:
    """A table of goods without codes or prices ('НАИМЕНОВАНИЕ | УПАКОВКА | ФАСОВКА'): its header names
    the column of names and, beside it, what each is sold in or as (a size, a pack, a weight); a spec
    table names its values column otherwise ('Параметр | Значение'). A column headed or printed as codes
    ('型号规格' over 'RSG-100') says the table is keyed by them, not by its names."""
    named = {_hint(header) for header in headers} | {match.role for h in headers if (match := header_role(h))}
    return rows >= PRICED_ROWS and any(r.role == "product_name" and r.named for r in roles) \
        and bool(named & GOODS_COLUMNS) and "model" not in named \
        and not any(r.scores.get("model", 0.0) >= GOODS_CODES for r in roles)


def _hint(header: str) -> str | None:
    """The role a column's header names: its lowest line naming one, since a group header stands above
    its columns' own ('价格' over '含税 | 不含税') and a section title may sit under the header row. A
    currency alone ('USD') heads prices."""
    return next((role for line in reversed(header.split("\n"))
                 if (role := named_role(line) or ("price" if is_currency(line) else None))), None)


def _menu_hints(columns: list[list[str]], round_share: float) -> list[str | None]:
    """Roles a headerless block's cells suggest for side-by-side menus ('紅茶 | 25 | 30 | 奶茶 | 40 |
    45'): a column of words names products, the first column of menu prices (or of amounts printed
    with their currency) after it, maybe past a column of sizes, prices them."""
    hints: list[str | None] = []
    for column in columns:
        filled = [cell.strip() for cell in column if cell.strip()]
        if menu_prices(filled, round_share) or _marked(filled):  # the names' first prices, maybe after their sizes
            hints.append("price" if next((h for h in reversed(hints) if h), None) == "product_name" else None)
        elif filled and sum(1 for cell in filled if LETTER.search(cell)) >= MENU_NAMES * len(filled):
            hints.append("product_name")
        else:
            hints.append(None)
    return hints


def _marked(cells: list[str]) -> bool:
    """Amounts printed with their currency ('$100', or one per size: '300元 350元') in nearly every cell
    of a column."""
    marked = sum(1 for cell in cells if (found := cell_price(cell)) and found.currency)
    return marked >= PRICED_ROWS and marked >= PRICED_SHARE * len(cells)


def _menu_parts(columns: list[list[str]]) -> tuple[list[range], float] | None:
    """Side-by-side menus (``_repeating`` on the roles their cells suggest), and the share of round
    amounts their prices were asked for. A column that prints in only a few rows (a legend under the
    menus, '去冰 / 0%ICE') belongs to the part on its left and does not count when the parts are
    matched. Names and amounts repeating side by side are evidence enough of a menu that prices its
    items to the unit ('鮮肉包 | 19 | 白饅頭 | 12'): only when no round prices repeat so are they asked
    for none."""
    kept = [j for j, column in enumerate(columns) if sum(1 for c in column if c.strip()) >= SPARSE * len(column)]
    for round_share in (MENU_ROUND, 0.0):
        parts = _repeating(_menu_hints([columns[j] for j in kept], round_share)) if len(kept) < len(columns) else None
        if parts is not None:
            starts = [kept[part.start] for part in parts] + [len(columns)]
            return [range(0 if n == 0 else a, b) for n, (a, b) in enumerate(pairwise(starts))], round_share
        hints = _menu_hints(columns, round_share)
        if (parts := _repeating(hints) or _named_parts(hints)) is not None:
            return parts, round_share
    return None


def _named_parts(hints: list[str | None]) -> list[range] | None:
    """Lists side by side whose columns differ ('name | price' beside 'name | size | price'): a column of
    names after a price column starts a part, and every part prices its names."""
    named = [(j, hint) for j, hint in enumerate(hints) if hint]
    starts = [j for n, (j, hint) in enumerate(named)
              if hint == "product_name" and (n == 0 or named[n - 1][1] == "price")]
    if len(starts) < 2:
        return None
    parts = [range(0 if n == 0 else a, b) for n, (a, b) in enumerate(pairwise([*starts, len(hints)]))]
    return parts if all("price" in hints[part.start:part.stop] for part in parts) else None


def _inner_header(grid: Grid, body: list[Row], hints: list[str | None]) -> tuple[list[range], list[str]] | None:
    """Tables side by side that start at different heights: the header over the grid names columns on
    one side only, and a row of the body names a key and a price in columns wholly to the other side
    (the right table's header beside the left table's rows). The grid parts between the two sides;
    the inner row heads its columns (the parts and every column's header)."""
    named = [j for j, hint in enumerate(hints) if hint]
    if not named:
        return None
    for row in body:
        over = {j: text for cell in row.cells for j, text in _over_columns(grid, cell, last=True)}
        for side in ([j for j in over if j > max(named)], [j for j in over if j < min(named)]):
            roles = {_hint(over[j]) for j in side}
            if "price" in roles and {"model", "product_name"} & roles:
                cut = min(side) if side[0] > max(named) else max(side) + 1
                return [range(cut), range(cut, len(hints))], [over[j] if j in side else "" for j in range(len(hints))]
    return None


def _ruled_parts(grid: Grid, body: list[Row], rules: list[BBox] | tuple) -> list[range] | None:
    """Tables set side by side, each ruled across its own width ('料金表' blocks of a spreadsheet
    printed next to each other, of unequal widths): the rules under the grid's rows fall into spans
    that no rule bridges, each span holds whole columns and rules several rows of it, and two of them
    hold two columns or more. A title bar's edges or a frame may run across them all (two rules at
    most); a table ruled row by row across its whole width is one table."""
    if not body:
        return None
    top, bottom = body[0].top, body[-1].bottom
    width = grid.columns[-1][1] - grid.columns[0][0]
    inside = [r for r in rules if top - 1 < r[1] < bottom + 1]
    across, own = [], []
    for rule in inside:
        (across if rule[2] - rule[0] >= ACROSS * width else own).append(rule)
    if len(across) > FRAME_RULES:
        return None
    spans: list[list[float]] = []
    for x0, _, x1, _ in sorted(own, key=lambda r: r[0]):
        if spans and x0 <= spans[-1][1] + RULE_JOIN:
            spans[-1][1] = max(spans[-1][1], x1)
            spans[-1][2] += 1
        else:
            spans.append([x0, x1, 1])
    if len(spans) < 2 or any(count < RULED_MIN for _, _, count in spans):
        return None
    owner = [next((n for n, (x0, x1, _) in enumerate(spans) if x0 <= (a + b) / 2 <= x1), None)
             for a, b in grid.columns]
    if None in owner or owner != sorted(owner) or len(set(owner)) < 2:
        return None
    parts = [range(owner.index(n), len(owner) - owner[::-1].index(n)) for n in sorted(set(owner))]
    return parts if sum(1 for part in parts if len(part) >= 2) >= 2 else None


def _sizes_sold(roles: list[ColumnRole]) -> list[ColumnRole]:
    """A headerless price list of sizes alone ('1M | $412.00' under its product's heading) sells the
    sizes: with neither names nor codes beside them, the sizes name the rows."""
    chosen = [r.role for r in roles]
    if "price" not in chosen or "size" not in chosen or {"model", "product_name"} & set(chosen):
        return roles
    return [replace(role, role="product_name") if role.role == "size" else role for role in roles]


def _part_rows(grid: Grid, rows: list[Row], columns: range) -> list[Row]:
    """The visual rows of one of several tables set side by side: each row's words in the part's
    columns. A heading or a row of the table beside it, set at another height, belongs to no row
    of this part."""
    part = []
    for row in rows:
        cells = []
        for cell in row.cells:
            words = tuple(w for w in cell.words if grid.column_of(w) in columns)
            if words:
                cells.append(cell if len(words) == len(cell.words)
                             else Cell(" ".join(w.text for w in words), union([w.bbox for w in words]), words))
        if cells:
            lines = frozenset(w.line for cell in cells for w in cell.words)
            part.append(Row(tuple(cells), lines, row.height, tuple(p for p in row.read if p[0] in lines)))
    return part


def _menu_columns(roles: list[ColumnRole], columns: list[list[str]], round_share: float) -> list[ColumnRole]:
    """A menu prints names beside bare amounts ('紅茶 | 25 | 30' under M and L): in a block of names
    without codes, prices or a header, the free columns whose amounts read as a menu's prices are
    its prices, the leftmost first. A line without a number (a name's translation under it, 'Sugar
    Cane Spring Oolong | Tea') prices nothing: its words that stray into an amounts column do not count."""
    chosen = [r.role for r in roles]
    if "product_name" not in chosen or {"model", "price"} & set(chosen):
        return roles
    numbered = [n for n, row in enumerate(zip(*columns, strict=True)) if _numbered(row)]
    menu = [j for j, column in enumerate(columns) if chosen[j] is None
            and menu_prices([column[n].strip() for n in numbered if column[n].strip()], round_share)]
    return [replace(role, role="price" if menu and j == menu[0] else "price_extra") if j in menu else role
            for j, role in enumerate(roles)]


def _nearest_names(roles: list[ColumnRole], columns: list[list[str]], round_share: float) -> list[ColumnRole]:
    """Without a header, a price prices the names printed nearest left of it: where another column of
    names stands between the names chosen and the prices, past a column of the first names' own
    amounts (two lists side by side, the left one's prices unread), the nearer names are the ones priced."""
    chosen = [r.role for r in roles]
    if "product_name" not in chosen or "price" not in chosen or "model" in chosen:
        return roles
    name, price = chosen.index("product_name"), chosen.index("price")
    hints = _menu_hints(columns, round_share)
    amounts = [j for j in range(name + 1, price) if _amounts(columns[j])]
    nearer = [j for j in range(name + 1, price) if hints[j] == "product_name" and chosen[j] is None
              and any(a < j for a in amounts) and _distinct(columns[j])]
    if not nearer:
        return roles
    return [replace(role, role="product_name") if j == nearer[-1] else replace(role, role=None) if j == name
            else role for j, role in enumerate(roles)]


def _distinct(cells: list[str]) -> bool:
    """Names, one per row: mostly different from each other, not a few short labels repeated ('WRB', 'RB')."""
    filled = [cell.strip() for cell in cells if cell.strip()]
    return len(filled) >= PRICED_ROWS and len(set(filled)) >= DISTINCT_NAMES * len(filled) and statistics.fmean(
        len(cell) for cell in filled) > SHORT_LABEL


def _amounts(cells: list[str]) -> bool:
    """A column whose cells mostly print a number (a list's own sizes or prices)."""
    filled = [cell for cell in cells if cell.strip()]
    return bool(filled) and sum(1 for cell in filled if any(ch.isdigit() for ch in cell)) >= MENU_NAMES * len(filled)


def _numbered(row: Sequence[str]) -> bool:
    """A row printing a number somewhere: a line without one (a name's translation) prices nothing."""
    return any(ch.isdigit() for cell in row for ch in cell)


def _products_without_header(roles: list[ColumnRole], rows: list[list[str]]) -> bool:
    """Cells that say a block without a header lists products: a column of codes, or names each beside
    an amount with its currency (in the cell, or in a cell of its own next to it: '€ | 36,25'), or
    beside amounts that read as a menu's prices. Other bare numbers do not: a table of specifications
    prints them too."""
    chosen = [r.role for r in roles]
    if "model" in chosen:
        return len(rows) >= 2
    if "product_name" not in chosen or "price" not in chosen:
        return False
    name, price = chosen.index("product_name"), chosen.index("price")
    if roles[name].scores.get("model", 0.0) >= CODE_MIN:
        return False  # codes with a word after them ('GT-0223-GN 绿色'): a card's variants, not a price list
    named = [row for row in rows if row[name]]
    if menu_prices([row[price].strip() for row in named if row[price].strip() and _numbered(row)]):
        return True

    def priced(row: list[str]) -> bool:
        found = price_of_cell(row[price], roles[price].decimal_mark)
        beside = row[max(price - 1, 0):price] + row[price + 1:price + 2]
        return found is not None and (found.currency is not None or any(is_currency(t) for t in beside if t))

    marked = sum(1 for row in named if priced(row))
    return marked >= PRICED_ROWS and marked >= PRICED_SHARE * len(named)


def _price_labels(grid: Grid, body: list[Row], columns: range,
                  roles: list[ColumnRole]) -> tuple[list[ColumnRole], list[Row]]:
    """A price list without header words may still label its price columns ('SSN 1.1 | SSN 1.0 NG'
    over two glazing prices) in the rows right above its first name: those rows name the price
    columns and are no products of their own. Returns the roles so named and the label rows."""
    name = columns.start + [r.role for r in roles].index("product_name")
    def unnamed(row: Row) -> bool:
        return not grid.texts(row)[name]

    above = [row for row in grid.above[-1:] if unnamed(row)]
    leading = list(takewhile(unnamed, body[:MAX_HEADER_LINES]))
    if len(leading) == len(body) or not (labels := above + leading):
        return roles, []
    texts = _column_headers(grid, labels)
    return [replace(role, header=texts[j]) if role.role in ("price", "price_extra") else role
            for j, role in zip(columns, roles, strict=True)], labels


def _spaced_letters(row: list[str]) -> bool:
    """A title set letter by letter across the table ('H U I C H A P U', each letter a box of its own)."""
    filled = [t for t in row if t]
    return len(filled) >= SPACED_LETTERS and all(len(t) == 1 for t in filled)


def _product_rows(texts: list[list[str]], columns: range | None = None) -> list[list[str]]:
    """The rows a column's role is judged on: those printing most of the table's cells (of
    ``columns``), not the section headings, group labels and notes between them, nor a title set
    letter by letter over more columns than any row fills."""
    def filled(row: list[str]) -> int:
        return sum(1 for j, t in enumerate(row) if t and (columns is None or j in columns))

    widest = max((filled(row) for row in texts if not _spaced_letters(row)), default=0)
    return [row for row in texts if filled(row) >= FULL_ROW_SHARE * widest] or texts


def _inside(row: Row, left: float, right: float) -> bool:
    return row.bbox[0] >= left - 20 and row.bbox[2] <= right + 20


def _shared_above(lines: list[Line], table: Table, used: set[int]) -> tuple[dict[str, str], set[int]]:
    """Labelled lines stacked directly above the table (a caption or a variant card's text)."""
    shared: dict[str, str] = {}
    taken: set[int] = set()
    header_lines = [ln for ln in lines if ln.index in table.lines]
    top = min(ln.bbox[1] for ln in header_lines)
    left = min(ln.bbox[0] for ln in header_lines)
    title: Line | None = None
    for line in sorted((ln for ln in lines if ln.bbox[3] <= top + 1 and ln.index not in used
                        and abs(ln.bbox[0] - left) <= CAPTION_ALIGN), key=lambda ln: -ln.bbox[3]):
        if top - line.bbox[3] > 1.6 * line.height:
            break
        found = labelled_value(line.text)
        if found:
            shared.setdefault(*found)
            taken.add(line.index)
        elif not line.heading:
            title = line
        top = line.bbox[1]
    if shared and title is not None and "product_name" not in shared:
        shared["product_name"] = title.text
        taken.add(title.index)
    return (shared, taken) if shared else ({}, set())


def _loose_headers(lines: list[Line], row_tolerance: float, grids: list[Grid]) -> list[tuple[float, TableHeader]]:
    """Header rows that head no block of their own ('Código | Descripcion' above group headings like
    'Linea: ALMACEN'), top to bottom with their bottom edge: the header of the first headerless
    block below them whose columns they line up with."""
    taken = {ln for grid in grids for row in (*grid.above, *grid.rows) for ln in row.lines}
    return [(row.bottom, TableHeader(tuple((named_role(cell.text), cell.bbox[0], cell.bbox[2], cell.text)
                                           for cell in row.cells)))
            for row in cell_rows(lines, row_tolerance)
            if len(row.cells) >= HEADER_CELLS and not row.lines & taken
            and _header_like([cell.text for cell in row.cells])]


def _coded(row: Row) -> bool:
    """A product row on its own under a group heading ('LX57012-190 | … | 2227'), not a totals line."""
    return is_data_row(row) and code_score(row.cells[0].text) >= 0.5


def _inherited(above: TableHeader | None, loose: Callable[[], list[tuple[float, TableHeader]]],
               grid: Grid) -> TableHeader | None:
    """The header a block without its own continues: the table above it (or the previous page's),
    else the nearest loose header row above it."""
    if above is not None:
        return above
    return next((header for bottom, header in reversed(loose()) if bottom <= grid.rows[0].top), None)


def find_tables(lines: list[Line], row_tolerance: float, previous: TableHeader | None,
                rules: list[BBox] | tuple = ()) -> list[Table]:
    """Every product table on the page, top to bottom; a block without a header continues the table
    above it, and the first may continue ``previous`` (the last table of the page before). ``rules``
    are the page's horizontal rules, which bound a ruled table's rows."""
    tables: list[Table] = []
    used: set[int] = set()
    grids = grids_of(lines, row_tolerance, rules)
    loose = cache(partial(_loose_headers, lines, row_tolerance, grids))  # found only if a headerless block asks
    for grid in grids:
        above = previous  # a headerless block of rows (or one with a code, not a footer) continues the table above
        if tables:
            above = tables[-1].header if len(grid.rows) > 1 or _coded(grid.rows[0]) else None
        for table in _read_grid(grid, partial(_inherited, above, loose, grid), rules):
            shared, caption = _shared_above(lines, table, used | table.lines)
            group = f"t{len(tables) + 1}" if "product_name" in shared else None
            for sku in table.skus:
                sku.inherit(shared, "variant_card" if group else "table_caption")
                sku.variant_group = group
                if table.inherited or table.inferred:
                    source = "inherited_header" if table.inherited else "inferred_columns"
                    sku.source.update(dict.fromkeys(sku.attributes, source))
            table.lines |= caption
            used |= table.lines
            tables.append(table)
    return tables


def headerless_rows(lines: list[Line], row_tolerance: float) -> bool:
    """Does the page start with product rows and no header above them? Such a page may continue the
    previous page's table, so it must not be read before that page is."""
    for row in cell_rows(lines, row_tolerance):
        texts = [cell.text for cell in row.cells]
        if _header_like(texts):
            return False
        words = sum(len(cell.words) for cell in row.cells)
        if is_data_row(row) and words >= 3 and not any(labelled_value(t) for t in texts) and any(
                code_score(t) >= 0.5 or price_of_cell(t) for t in texts):
            return True
    return False
