"""Table rules (A pages, and table fragments on B pages): one body row = one SKU.

A header row is a row with at least two cells that name attributes, in Chinese, English or both
('型号/Model', 'Unit Price (USD)'). Its cells' left edges cut the table into columns and every
word of a body row goes to the column its left edge falls in. Lines stacked right above the
header that carry labelled values ('材质：陶瓷', a variant card's name) are attributes the rows
share (``attribute_source``). A page whose rows line up under the previous page's header but
print none themselves continues that table (seed-000 §10, BR-17): the header is inherited.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from skuflow_contracts.vocabulary import MODEL_CODE, PRICE, attribute_for_label, labelled_value
from skuflow_extractor.domain.columns import infer_columns
from skuflow_extractor.domain.drafts import SkuDraft
from skuflow_extractor.domain.words import Line, Word, rows_of

SLACK = 4.0  # points a value may start left of its header cell
ALIGN = 4.0  # points two left edges may differ and still be one column
MAX_ROW_GAP = 2.6  # a gap above a row larger than this many row heights ends the table


@dataclass(frozen=True)
class TableHeader:
    """A table's columns: (attribute or None for a photo column, left edge), and its right edge."""

    columns: tuple[tuple[str | None, float], ...]
    right: float

    @property
    def left(self) -> float:
        return self.columns[0][1]

    def to_json(self) -> dict:
        return {"columns": [list(c) for c in self.columns], "right": self.right}

    @classmethod
    def from_json(cls, data: dict) -> TableHeader:
        return cls(tuple((attr, float(left)) for attr, left in data["columns"]), float(data["right"]))

    def column_of(self, word: Word) -> str | bool | None:
        """The attribute of the column ``word`` starts in; False when it is outside the table."""
        if word.bbox[0] < self.left - SLACK or word.bbox[0] > self.right:
            return False
        chosen: str | bool | None = False
        for attribute, left in self.columns:
            if word.bbox[0] >= left - SLACK:
                chosen = attribute
        return chosen


@dataclass
class Table:
    header: TableHeader
    skus: list[SkuDraft]
    lines: set[int]
    inherited: bool
    bottom: float


def _header(row: list[Line]) -> TableHeader | None:
    columns = [(attribute_for_label(line.text), line.bbox[0]) for line in row]
    named = [attr for attr, _ in columns if attr and attr != "picture"]
    if len(named) < 2 or len(set(named)) != len(named):
        return None
    kept = tuple((None if attr == "picture" else attr, left) for attr, left in columns if attr)
    widths = [b[1] - a[1] for a, b in pairwise(kept)] or [row[-1].bbox[2] - row[0].bbox[0]]
    right = max(row[-1].bbox[2], kept[-1][1] + max(widths) * 1.5)
    return TableHeader(kept, right)


def _aligned(row: list[Line], header: TableHeader) -> int:
    """How many of the row's words start on one of the header's column edges."""
    lefts = [left for _, left in header.columns]
    return sum(1 for line in row for word in line.words if any(abs(word.bbox[0] - x) <= ALIGN for x in lefts))


def _is_product_row(row: list[Line]) -> bool:
    """Model codes or prices in unlabelled cells (labelled lines belong to cards, not tables)."""
    text = " ".join(line.text for line in row)
    return bool(MODEL_CODE.search(text) or PRICE.search(text)) and not any(labelled_value(ln.text) for ln in row)


def _read_rows(rows: list[list[Line]], header: TableHeader, top: float) -> tuple[list[SkuDraft], set[int], float]:
    """Body rows below ``top`` until the table ends (a gap, or a row that is not a product row)."""
    skus: list[SkuDraft] = []
    used: set[int] = set()
    previous_bottom = top
    pitch: float | None = None
    for row in rows:
        if row[0].bbox[1] < top - 1:
            continue
        inside = [word for line in row for word in line.words if header.column_of(word) is not False]
        if not inside:
            continue
        height = max(line.height for line in row)
        gap = min(w.bbox[1] for w in inside) - previous_bottom
        if gap > MAX_ROW_GAP * max(height, pitch or 0):
            break
        draft = _row_draft(inside, header)
        if not _is_sku_row(draft):
            break
        skus.append(draft)
        used |= {line.index for line in row if any(w.line == line.index for w in inside)}
        bottom = max(w.bbox[3] for w in inside)
        pitch = bottom - previous_bottom if pitch is None else pitch
        previous_bottom = bottom
    return skus, used, previous_bottom


def _is_sku_row(draft: SkuDraft) -> bool:
    """A row names a product and has a model code or a price: a note under the table has neither."""
    coded = MODEL_CODE.search(draft.attributes.get("model", ""))
    return draft.has_identity and len(draft.attributes) >= 2 and bool(coded or "price" in draft.attributes)


def _row_draft(words: list[Word], header: TableHeader) -> SkuDraft:
    cells: dict[str, list[str]] = {}
    for word in sorted(words, key=lambda w: w.bbox[0]):
        attribute = header.column_of(word)
        if attribute:
            cells.setdefault(attribute, []).append(word.text)
    draft = SkuDraft(origin="table_row", boxes=[w.bbox for w in words])
    for attribute, parts in cells.items():
        draft.set(attribute, " ".join(parts))
    return draft


def _shared_above(lines: list[Line], header_row: list[Line], used: set[int]) -> tuple[dict[str, str], set[int]]:
    """Labelled lines stacked directly above the header (a caption or a variant card's text)."""
    shared: dict[str, str] = {}
    taken: set[int] = set()
    top = header_row[0].bbox[1]
    left = header_row[0].bbox[0]
    title: Line | None = None
    for line in sorted((ln for ln in lines if ln.bbox[3] <= top + 1 and ln.index not in used),
                       key=lambda ln: -ln.bbox[3]):
        if top - line.bbox[3] > 1.6 * line.height or abs(line.bbox[0] - left) > 12:
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


def find_tables(lines: list[Line], row_tolerance: float, previous: TableHeader | None,
                infer: bool = False) -> list[Table]:
    """Every table on the page; rows before any header continue ``previous`` (or, with ``infer``,
    are read under columns inferred from their cells)."""
    rows = rows_of(lines, row_tolerance)
    tables: list[Table] = []
    used: set[int] = set()
    for row in rows:
        if any(line.index in used for line in row):
            continue
        header = _header(row)
        if header is None:
            continue
        skus, body, bottom = _read_rows(rows, header, max(line.bbox[3] for line in row))
        if not skus:
            continue
        shared, caption = _shared_above(lines, row, used)
        group = f"t{len(tables) + 1}" if "product_name" in shared else None
        for sku in skus:
            sku.inherit(shared, "variant_card" if group else "table_caption")
            sku.variant_group = group
        table_lines = body | caption | {line.index for line in row}
        used |= table_lines
        tables.append(Table(header, skus, table_lines, False, bottom))
    first_header_top = min((min(ln.bbox[1] for ln in lines if ln.index in t.lines) for t in tables), default=None)
    continued = continuation(rows, previous, used, first_header_top, infer)
    return ([continued] if continued else []) + tables


def _leading_product_rows(rows: list[list[Line]], used: set[int], before: float | None) -> list[list[Line]]:
    """The product rows a page starts with, above its first header (if it has one)."""
    found: list[list[Line]] = []
    for row in rows:
        if before is not None and row[0].bbox[1] >= before:
            break
        if any(line.index in used for line in row) or not _is_product_row(row) or len(row) < 2:
            if found:
                break
            continue
        found.append(row)
    return found


def continuation(rows: list[list[Line]], previous: TableHeader | None, used: set[int],
                 before: float | None, infer: bool) -> Table | None:
    """Product rows above any header of this page: read under the previous page's header when they
    line up with it (BR-17), else, if ``infer``, under columns inferred from the rows themselves."""
    leading = _leading_product_rows(rows, used, before)
    if not leading:
        return None
    header, source = None, "inherited_header"
    if previous is not None and _aligned(leading[0], previous) >= 2:
        header = previous
    elif infer and len(leading) >= 2 and (columns := infer_columns(leading)):
        right = max(line.bbox[2] for row in leading for line in row)
        header, source = TableHeader(columns, right), "inferred_columns"
    if header is None:
        return None
    skus, body, bottom = _read_rows(rows, header, leading[0][0].bbox[1])
    for sku in skus:
        sku.source.update(dict.fromkeys(sku.attributes, source))
    return Table(header, skus, body, header is previous, bottom) if skus else None


def headerless_rows(lines: list[Line], row_tolerance: float) -> bool:
    """Does the page start with product rows of several cells and no header above them? Such a page
    may continue the previous page's table, so it must not be read before that page is."""
    for row in rows_of(lines, row_tolerance):
        if _header(row) is not None:
            return False
        words = sum(len(line.words) for line in row)
        if _is_product_row(row) and len(row) >= 2 and words >= 3:
            return True
    return False
