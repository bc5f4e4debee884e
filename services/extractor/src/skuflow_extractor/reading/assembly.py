"""Stage 4, assembly: the SKUs of the page from the candidates the decision takes, and how sure the
page's reading is.

Taken most likely first, at the reader's threshold: a code printed twice on the page is one product
(its first reading), a cell gives one product (or one for each code it lists and each name it prints
with its own price), and a row that prints a product's code names that product in its other cells (its
name is no product of its own). Where a person's correction showed a name set once over its variants,
each priced row under it is a product of that name (``variants``). A SKU's confidence is its
candidate's probability. The page's confidence is that of its least likely SKU, and of the most likely
candidate left out (a product that may have been missed); under the reader's review threshold a person
looks.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import numpy as np

from skuflow_contracts.ids import sku_id
from skuflow_contracts.ir import BBox, union
from skuflow_contracts.results import SkuAttributes, SkuRecord
from skuflow_extractor.domain.validity import READING_ORDER_BAND, judge
from skuflow_extractor.reading.candidates import PIECES, WRAPPED_GAP, Candidate, TaughtColumn, cell_price
from skuflow_extractor.reading.geometry import Geometry, same_column

NOTHING_LEFT_OUT = 0.0  # the chance of a missed product when no candidate was left out


@dataclass(frozen=True)
class PageReading:
    skus: list[SkuRecord]
    confidence: float
    chosen: list[int]  # the candidates its SKUs come from, by index (a variant row read by the rules is absorbed)


def choose(found: list[Candidate], probability: np.ndarray, take: float, geo: Geometry) -> list[int]:
    """The candidates that become SKUs, codes before names, each most likely first."""
    chosen: list[int] = []
    codes: set[str] = set()
    cells: dict[int, bool] = {}  # cell → whether what it gave so far is pieces of it (listed codes, priced names)
    coded_rows: set[int] = set()
    for kind in ("code", "name"):
        for n in sorted((n for n, c in enumerate(found) if c.kind == kind), key=lambda n: -probability[n]):
            c = found[n]
            if probability[n] < take:
                break
            row = int(geo.row_of[c.cell]) if c.cell is not None else None
            if kind == "code" and row is not None:
                coded_rows.add(row)  # a row printing a product's code (again, too) names that product
            piece = bool(PIECES & c.sources)
            if (kind == "code" and c.norm in codes) or (c.cell in cells and not (piece and cells[c.cell])) or (
                    kind == "name" and row in coded_rows):
                continue
            chosen.append(n)
            codes |= {c.norm} if kind == "code" else set()
            if c.cell is not None:
                cells[c.cell] = piece
    return chosen


def page_confidence(found: list[Candidate], probability: np.ndarray, chosen: list[int],
                    repeats_doubt: bool = True) -> float:
    """The least likely SKU's probability, or the chance the likeliest candidate left out is a product,
    whichever is lower; a candidate repeating a taken key counts as left out only where ``repeats_doubt``."""
    taken = min((float(probability[n]) for n in chosen), default=1.0)
    left = np.ones(len(probability), dtype=bool)
    left[chosen] = False
    if not repeats_doubt:  # only an adapted reader looks at the keys: the committed one reads every page
        keys = {(found[n].kind, found[n].norm) for n in chosen}
        left &= np.array([(c.kind, c.norm) not in keys for c in found], dtype=bool)
    missed = float(probability[left].max()) if left.any() else NOTHING_LEFT_OUT
    return round(min(taken, 1.0 - missed), 4)


def assemble(geo: Geometry, found: list[Candidate], probability: np.ndarray, take: float,
             file_hash: str, repeats_doubt: bool = True, taught: tuple[TaughtColumn, ...] = ()) -> PageReading:
    """The page's SKUs in reading order; ``taught``: the columns a correction of a page of its layout taught (a
    name column's variants among them)."""
    chosen = choose(found, probability, take, geo)
    records = {n: _record(geo, found, n, float(probability[n])) for n in chosen}
    groups = {n: rows for n in chosen if (rows := variant_rows(geo, found, n, records[n], chosen, taught))}
    absorbed = {m for n, rows in groups.items() for m in chosen if m != n and _same_key(found[m], found[n])
                and _within(geo, records[m].source_bbox, rows)}  # the rule readers' reading of a variant row
    drafts = [(n, draft) for n in chosen if n not in absorbed
              for draft in (variants(geo, records[n], groups[n]) if n in groups else [records[n]])]
    ordered = sorted(drafts, key=lambda d: (round(d[1].source_bbox[1] / READING_ORDER_BAND), d[1].source_bbox[0]))
    skus = [draft.model_copy(update={"sku_id": sku_id(file_hash, geo.page.page, seq)})
            for seq, (_, draft) in enumerate(ordered, start=1)]
    return PageReading(skus, page_confidence(found, probability, chosen, repeats_doubt),
                       list(dict.fromkeys(n for n, _ in ordered)))


def variant_rows(geo: Geometry, found: list[Candidate], n: int, record: SkuRecord, chosen: list[int],
                 taught: tuple[TaughtColumn, ...]) -> list[tuple[int, int]]:
    """Where a person's correction showed a name column's names set once over their variants
    (``TaughtColumn.variants``: a fitting's sizes, a wheel's diameters, each on a row of its own with its price),
    the priced rows of candidate ``n``'s name: from its row down to the next entry of its column (``entries``), row
    holding a taken key or, where the person's names ended there (``TaughtColumn.pictured``), picture of another
    product (``next_picture``), each with the cell printing its price in
    the column of the name's own price (row, cell); none for any other candidate."""
    c = found[n]
    column = next((column for column in taught if column.variants and column.kind == c.kind == "name"
                   and c.cell is not None and column.holds(geo, c.cell)), None)
    if column is None:
        return []
    ends = entries(geo, column) | {int(geo.row_of[found[m].cell]) for m in chosen if found[m].cell is not None}
    rows = name_rows(geo, c.cell, ends, next_picture(geo, c.cell) if column.pictured else NO_PICTURE)
    priced = [prices_beside(geo, row, c.cell) for row in rows]
    own = record.attributes.price
    anchor = next((m for cells in priced for m in cells if not own or cell_price(geo.cells[m].text).text == own),
                  None)  # the name's own price, where its rows print it; else the first printed
    if anchor is None:
        return []
    return [(row, at) for row, cells in zip(rows, priced, strict=True)
            if (at := next((m for m in cells if m == anchor or geo.aligned[anchor, m]), None)) is not None]


NO_PICTURE = float("inf")  # where the next picture starts when none does


def name_rows(geo: Geometry, cell: int, ends: set[int], below: float) -> range:
    """The rows of the name in ``cell``: from its own down to the first of ``ends`` under it, or to the first row
    whose middle is at or under ``below`` (where the next product's picture starts, ``next_picture``)."""
    first = int(geo.row_of[cell])
    end = min((row for row in ends if row > first), default=len(geo.rows))
    return range(first, next((row for row in range(first + 1, end) if _row_middle(geo, row) >= below), end))


def prices_beside(geo: Geometry, row: int, cell: int) -> list[int]:
    """The cells of ``row`` other than ``cell`` that print a price."""
    return [m for m in geo.rows[row] if m != cell and cell_price(geo.cells[m].text) is not None]


def own_picture(geo: Geometry, cell: int) -> BBox | None:
    """The first picture in the name's column reaching below it: the picture a name is set over."""
    box = geo.cells[cell].bbox
    return _first_below(_column_pictures(geo, box), box)


def next_picture(geo: Geometry, cell: int) -> float:
    """Where the picture after the name's own starts in the name's column (its top; ``NO_PICTURE`` where there is
    none): a name set over its picture, its sizes beside them, and the next picture is another product's, named or
    not."""
    box = geo.cells[cell].bbox
    pictures = _column_pictures(geo, box)
    own = _first_below(pictures, box)
    return next((picture[1] for picture in pictures if own is not None and picture[1] >= (own[1] + own[3]) / 2),
                NO_PICTURE)


def _first_below(pictures: list[BBox], box: BBox) -> BBox | None:
    return next((picture for picture in pictures if picture[3] > box[3]), None)


def _column_pictures(geo: Geometry, box: BBox) -> list[BBox]:
    """The page's pictures in the column of ``box``, top first."""
    return sorted((image.bbox for image in geo.page.images if same_column(image.bbox, box)),
                  key=lambda picture: picture[1])


def _row_middle(geo: Geometry, row: int) -> float:
    """The height of the row's cells' middles, on average."""
    return statistics.fmean((geo.cells[m].bbox[1] + geo.cells[m].bbox[3]) / 2 for m in geo.rows[row])


def entries(geo: Geometry, column: TaughtColumn) -> set[int]:
    """The rows where an entry of the column starts: a cell of it that is no line wrapped from the one above it
    (as close under it as a paragraph's lines, ``WRAPPED_GAP``: 'PU gang không' / 'càng', a size's row between)."""
    rows, above = set(), None
    for m in sorted((m for m in range(len(geo.cells)) if column.holds(geo, m)), key=lambda m: geo.cells[m].bbox[1]):
        box = geo.cells[m].bbox
        if above is None or box[1] - above[3] > WRAPPED_GAP * max(above[3] - above[1], box[3] - box[1]):
            rows.add(int(geo.row_of[m]))
        above = box
    return rows


def variants(geo: Geometry, record: SkuRecord, rows: list[tuple[int, int]]) -> list[SkuRecord]:
    """A name's SKUs, one a priced row (``variant_rows``): its own record on the row of its own price (priced by the
    first row where it has none), the name with that row's price on each other."""
    prices = [cell_price(geo.cells[at].text) for _, at in rows]
    own = next((n for n, price in enumerate(prices) if price.text == record.attributes.price), 0)
    return [record if n == own and record.attributes.price else record.model_copy(update={
        "attributes": record.attributes.model_copy(update={"price": price.text}),
        "raw_attributes": {**record.raw_attributes, "price": price.raw},
        **({} if n == own else {"source_bbox": union([geo.cells[m].bbox for m in geo.rows[row]])})})
        for n, ((row, _), price) in enumerate(zip(rows, prices, strict=True))]


def _same_key(a: Candidate, b: Candidate) -> bool:
    return a.kind == b.kind and a.norm == b.norm


def _within(geo: Geometry, box: BBox, rows: list[tuple[int, int]]) -> bool:
    """Whether the box's middle stands within the rows (top of the first to the foot of the last)."""
    top = min(geo.cells[m].bbox[1] for row, _ in rows for m in geo.rows[row])
    foot = max(geo.cells[m].bbox[3] for row, _ in rows for m in geo.rows[row])
    return top <= (box[1] + box[3]) / 2 <= foot


def _record(geo: Geometry, found: list[Candidate], n: int, probability: float) -> SkuRecord:
    """The SKU of candidate ``n``: the rule reader's record where it is one (or reads the same cell, or
    the same key), with the candidate's key; else the key and the price its row prints."""
    c = found[n]
    confidence = round(probability, 3)
    engine = c.engine or next((o.engine for o in found if o.engine is not None and o.cell == c.cell
                               and c.cell is not None), None) or next(
        (o.engine for o in found if o.engine is not None and o.norm == c.norm and o.kind == c.kind), None)
    key = {"model": c.key} if c.kind == "code" else {"model": None, "product_name": c.key}
    if engine is not None:
        attributes = engine.attributes.model_copy(update=key)
        price = {"price": c.price} if c.engine is None and c.price and not attributes.price else {}
        attributes = attributes.model_copy(update=price)
        validity, status, warning = judge(attributes, engine.custom_attributes)
        return engine.model_copy(update={"attributes": attributes, "confidence": confidence, "validity": validity,
                                         "status": status, "quality_warning": warning})
    attributes = SkuAttributes(**key, price=c.price)
    validity, status, warning = judge(attributes, {})
    return SkuRecord(sku_id="", validity=validity, status=status, attributes=attributes,
                     source_bbox=_row_box(geo, c), confidence=confidence, quality_warning=warning,
                     raw_attributes={"price": c.price_raw} if c.price_raw else {},
                     origin="table_row" if c.cell is not None and len(geo.rows[int(geo.row_of[c.cell])]) > 1
                     else "line")


def _row_box(geo: Geometry, c: Candidate) -> BBox:
    """The candidate's cell and the cells after it in its row (its price among them)."""
    if c.cell is None:
        return c.bbox
    row = geo.rows[int(geo.row_of[c.cell])]
    return union([geo.cells[n].bbox for n in row[row.index(c.cell):]])
