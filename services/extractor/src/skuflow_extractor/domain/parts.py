"""Tables set side by side in one block of rows: where one ends and the next begins.

Their header repeats its roles (or its words) after each part; headerless menus repeat names beside
their prices; a table may start lower than the one beside it, its header a row of the other's body;
or each table is ruled across its own width. Each part is then read as a table of its own, from the
words its rows print in its columns.
"""

from __future__ import annotations

from itertools import pairwise, zip_longest

from skuflow_catalog.headers import named_role
from skuflow_catalog.prices import MENU_ROUND, menu_prices
from skuflow_catalog.values import cell_price

from skuflow_contracts.ir import BBox, union
from skuflow_extractor.domain.grid import LETTER, Cell, Grid, Row
from skuflow_extractor.domain.table_header import hint, over_columns
from skuflow_extractor.domain.table_rows import RULED_MIN

VERBATIM_LABELS = 3  # header cells a part must print for a word-for-word repeat to split the table
ACROSS = 0.9  # a rule this share of a grid's width long runs across its side-by-side tables
FRAME_RULES = 2  # rules across them all that a title bar or a frame draws
RULE_JOIN = 3.0  # points: rules this close end to end are one rule (a row's cell borders drawn one by one)
MENU_NAMES = 0.8  # share of a column's cells holding letters that make it a menu's names
SPARSE = 0.3  # share of rows a menu column prints in at least; a sparser one is a legend or a note
PRICED_ROWS = 3  # rows of names beside currency-marked amounts that make an unheaded block a price list
PRICED_SHARE = 0.8  # … of its rows printing a currency with the amount


def segments(roles_hint: list[str | None], labels: list[str]) -> list[range]:
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


def menu_hints(columns: list[list[str]], round_share: float) -> list[str | None]:
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


def menu_parts(columns: list[list[str]]) -> tuple[list[range], float] | None:
    """Side-by-side menus (``_repeating`` on the roles their cells suggest), and the share of round
    amounts their prices were asked for. A column that prints in only a few rows (a legend under the
    menus, '去冰 / 0%ICE') belongs to the part on its left and does not count when the parts are
    matched. Names and amounts repeating side by side are evidence enough of a menu that prices its
    items to the unit ('鮮肉包 | 19 | 白饅頭 | 12'): only when no round prices repeat so are they asked
    for none."""
    kept = [j for j, column in enumerate(columns) if sum(1 for c in column if c.strip()) >= SPARSE * len(column)]
    for round_share in (MENU_ROUND, 0.0):
        parts = _repeating(menu_hints([columns[j] for j in kept], round_share)) if len(kept) < len(columns) else None
        if parts is not None:
            starts = [kept[part.start] for part in parts] + [len(columns)]
            return [range(0 if n == 0 else a, b) for n, (a, b) in enumerate(pairwise(starts))], round_share
        hints = menu_hints(columns, round_share)
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


def inner_header(grid: Grid, body: list[Row], hints: list[str | None]) -> tuple[list[range], list[str]] | None:
    """Tables side by side that start at different heights: the header over the grid names columns on
    one side only, and a row of the body names a key and a price in columns wholly to the other side
    (the right table's header beside the left table's rows). The grid parts between the two sides;
    the inner row heads its columns (the parts and every column's header)."""
    named = [j for j, hint in enumerate(hints) if hint]
    if not named:
        return None
    for row in body:
        over = {j: text for cell in row.cells for j, text in over_columns(grid, cell, last=True)}
        for side in ([j for j in over if j > max(named)], [j for j in over if j < min(named)]):
            roles = {hint(over[j]) for j in side}
            if "price" in roles and {"model", "product_name"} & roles:
                cut = min(side) if side[0] > max(named) else max(side) + 1
                return [range(cut), range(cut, len(hints))], [over[j] if j in side else "" for j in range(len(hints))]
    return None


def ruled_parts(grid: Grid, body: list[Row], rules: list[BBox] | tuple) -> list[range] | None:
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


def part_rows(grid: Grid, rows: list[Row], columns: range) -> list[Row]:
    """The visual rows of one of several tables set side by side: each row's words in the part's
    columns. A heading or a row of the table beside it, set at another height, belongs to no row
    of this part."""
    part = []
    for row in rows:
        cells = []
        for cell in row.cells:
            words = tuple(w for column, w in grid.placed(cell) if column in columns)
            if words:
                cells.append(cell if len(words) == len(cell.words)
                             else Cell(" ".join(w.text for w in words), union([w.bbox for w in words]), words))
        if cells:
            lines = frozenset(w.line for cell in cells for w in cell.words)
            part.append(Row(tuple(cells), lines, row.height, tuple(p for p in row.read if p[0] in lines)))
    return part
