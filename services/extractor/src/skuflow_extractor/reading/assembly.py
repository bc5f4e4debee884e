"""Stage 4, assembly: the SKUs of the page from the candidates the decision takes, and how sure the
page's reading is.

Taken most likely first, at the reader's threshold: a code printed twice on the page is one product
(its first reading), a cell gives one product (or one for each code it lists and each name it prints
with its own price), and a row that prints a product's code names that product in its other cells (its
name is no product of its own). A SKU's confidence is its candidate's probability. The page's confidence
is that of its least likely SKU, and of the most likely candidate left out (a product that may have been
missed); under the reader's review threshold a person looks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from skuflow_contracts.ids import sku_id
from skuflow_contracts.ir import BBox, union
from skuflow_contracts.results import SkuAttributes, SkuRecord
from skuflow_extractor.domain.validity import READING_ORDER_BAND, judge
from skuflow_extractor.reading.candidates import PIECES, Candidate
from skuflow_extractor.reading.geometry import Geometry

NOTHING_LEFT_OUT = 0.0  # the chance of a missed product when no candidate was left out


@dataclass(frozen=True)
class PageReading:
    skus: list[SkuRecord]
    confidence: float
    chosen: list[int]  # the candidates taken, by index


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
             file_hash: str, repeats_doubt: bool = True) -> PageReading:
    chosen = choose(found, probability, take, geo)
    drafts = [_record(geo, found, n, float(probability[n])) for n in chosen]
    ordered = sorted(range(len(drafts)), key=lambda i: (round(drafts[i].source_bbox[1] / READING_ORDER_BAND),
                                                         drafts[i].source_bbox[0]))
    skus = [drafts[i].model_copy(update={"sku_id": sku_id(file_hash, geo.page.page, seq)})
            for seq, i in enumerate(ordered, start=1)]
    return PageReading(skus, page_confidence(found, probability, chosen, repeats_doubt),
                       [chosen[i] for i in ordered])


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
