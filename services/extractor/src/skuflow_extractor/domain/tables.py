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

Which rows make a table's header is decided in ``table_header``, how its lines join into rows in
``table_rows``, where tables set side by side part in ``parts``, and which codes a model cell prints
in ``model_cells``; this module reads each table's rows into SKUs with them.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial
from itertools import takewhile

from skuflow_catalog.codes import (
    ITEM_SHARE,
    article_tails,
    code_score,
    is_package,
    item_number,
    trailing_code,
)
from skuflow_catalog.headers import header_role, is_currency, labelled_value, named_role
from skuflow_catalog.prices import MENU_ROUND, Price, find_prices, menu_prices, money_shaped, price_of_cell
from skuflow_catalog.values import cell_price, is_size, prices_and_rest

from skuflow_contracts.ir import BBox
from skuflow_extractor.domain.drafts import SkuDraft, custom_label
from skuflow_extractor.domain.grid import (
    FULL_ROW_SHARE,
    LETTER,
    Grid,
    Row,
    add_header_columns,
    cell_rows,
    grids_of,
    is_data_row,
    split_at_header,
)
from skuflow_extractor.domain.model_cells import (
    CODE_MIN,
    LEADING_EVIDENCE,
    model_of,
    recurring_tags,
    series_words,
    untagged,
)
from skuflow_extractor.domain.parts import (
    MENU_NAMES,
    PRICED_ROWS,
    PRICED_SHARE,
    inner_header,
    menu_hints,
    menu_parts,
    part_rows,
    ruled_parts,
    segments,
)
from skuflow_extractor.domain.roles import ColumnRole, assign_roles
from skuflow_extractor.domain.series import series_drafts
from skuflow_extractor.domain.table_header import (
    HEADER_CELL_WORDS,
    HEADER_CELLS,
    HEADER_SCAN,
    MAX_HEADER_LINES,
    column_headers,
    header_like,
    hint,
    split_header,
)
from skuflow_extractor.domain.table_rows import (
    PREFIX,
    UNREAD_CODE,
    parted,
    records,
    ruled_rows,
    table_rows,
    translation,
)
from skuflow_extractor.domain.words import Line

HEADING_COLUMNS = 3  # in a table this wide, a row printing one cell is a section heading
INHERIT_OVERLAP = 0.5
CAPTION_ALIGN = 12.0  # points: a caption's lines start this close to the table's left edge
MIN_PARTS = 3  # part numbers heading this many columns make a comparison table (one product per column)
MIN_PART = 6  # characters of a whole part number stacked over another
MAX_HEAD_LINES = 3  # lines a part number may wrap into
FOOTNOTE = re.compile(r"\(\d\)$|[¹²³]$")  # a footnote mark printed after a part number
CARD_CODE = 0.9  # code evidence of each code in a row of product cards
SPACED_LETTERS = 4  # cells of one letter each that make a row a title set letter by letter
CARD_ROWS = 4  # rows of a grid of product cards read column by column (price, name, size)
NAME_EVIDENCE = 0.5  # code evidence of a row keyed by its name, with no code
# row heights (the lower of the two: a heading set larger wraps nothing): a codeless row closer than this
# under an SKU row wraps it
CONTINUATION_GAP = 0.8
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


def _evidence(code: float, role: float, read: float) -> float:
    """An SKU row's evidence: how code-like its code is, how surely its column is the code (or name)
    column, and how surely OCR read that cell."""
    return round((0.5 + 0.5 * code) * (0.7 + 0.3 * min(1.0, role)) * read, 3)


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
        found = model_of(untagged(texts[model], tags), roles[model - columns.start], tails, priced, series) \
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
            key_lines = {w.line for w in grid.words_in(row, key)}
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
                and not priced and len(filled) <= 2 and not parted(last_row, row, rules):
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
        words = grid.words_in(row, model)
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
    return header_like(texts) and all(len(text.split()) <= HEADER_CELL_WORDS for text in texts)


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
            if current and translation(current, texts[j]):
                continue
            draft.attributes[role.role] = f"{current} {texts[j]}" if current else texts[j]


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
    header_rows, body = split_header(grid)
    grid = add_header_columns(split_at_header(grid, header_rows), header_rows)
    headers = column_headers(grid, header_rows)
    inherited = False
    if not any(headers) and (above := inherit()) is not None and (laid := above.headers_for(grid)):
        headers, inherited = laid, True
    hints = [hint(h) for h in headers]
    visual, ruled = body, ruled_rows(grid, body, rules)
    body = ruled or table_rows(grid, visual, range(len(grid.columns)), rules)
    texts = [grid.texts(row) for row in body]
    cells = _product_rows(texts)
    tables = []
    labels = next((texts for row in header_rows if header_like(texts := grid.texts(row))), [""] * len(headers))
    keyed = {"model", "product_name", "price"} & set(hints)
    menus, round_share = (None if keyed else menu_parts([[row[j] for row in cells] for j in range(len(headers))])) \
        or (None, MENU_ROUND)
    if menus:  # lines over side-by-side menus that name no key column ('包子類 | 饅頭類') are their titles
        headers = [""] * len(headers)
    parts = menus or segments(hints, labels)
    if len(parts) == 1 and (inner := inner_header(grid, visual, hints)) is not None:
        parts, headers = inner[0], [h or inner[1][j] for j, h in enumerate(headers)]
    if len(parts) == 1:
        parts = ruled_parts(grid, visual, rules) or parts
    record_rows = records(visual) if len(parts) > 1 else visual  # records span the parts: their rhythm is the page's
    for columns in parts:
        if len(parts) > 1:  # side by side: each part's rows, where the other part has ended
            own = part_rows(grid, record_rows, columns)
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
    named = {hint(header) for header in headers} | {match.role for h in headers if (match := header_role(h))}
    return rows >= PRICED_ROWS and any(r.role == "product_name" and _whole_term(r.header) for r in roles) \
        and bool(named & GOODS_COLUMNS) and "model" not in named \
        and not any(r.scores.get("model", 0.0) >= GOODS_CODES for r in roles)


def _whole_term(header: str) -> bool:
    """A header line that is a name's term whole ('НАИМЕНОВАНИЕ'), not one holding it ('产品目录编号', a
    catalogue's number in a page's letterhead)."""
    return any((match := header_role(line)) is not None and match.role == "product_name" and match.score >= 1.0
               for line in header.split("\n"))


def _sizes_sold(roles: list[ColumnRole]) -> list[ColumnRole]:
    """A headerless price list of sizes alone ('1M | $412.00' under its product's heading) sells the
    sizes: with neither names nor codes beside them, the sizes name the rows."""
    chosen = [r.role for r in roles]
    if "price" not in chosen or "size" not in chosen or {"model", "product_name"} & set(chosen):
        return roles
    return [replace(role, role="product_name") if role.role == "size" else role for role in roles]


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
    hints = menu_hints(columns, round_share)
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
    an amount with its currency (in the cell, or in a cell of its own next to it: '€ | 36,25') or
    written as money ('14,000.00'), or beside amounts that read as a menu's prices. Other bare numbers
    do not: a table of specifications prints them too."""
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
        return found is not None and (found.currency is not None or money_shaped(row[price])
                                      or any(is_currency(t) for t in beside if t))

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
    texts = column_headers(grid, labels)
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
            and header_like([cell.text for cell in row.cells])]


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
        if tables:  # … when that table had a header: one read from its cells alone says nothing of this block's
            above = tables[-1].header if (len(grid.rows) > 1 or _coded(grid.rows[0])) and not tables[-1].inferred \
                else None
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
        if header_like(texts):
            return False
        words = sum(len(cell.words) for cell in row.cells)
        if is_data_row(row) and words >= 3 and not any(labelled_value(t) for t in texts) and any(
                code_score(t) >= 0.5 or price_of_cell(t) for t in texts):
            return True
    return False
