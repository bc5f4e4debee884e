"""What the learned decision sees of a candidate: language-agnostic measures of its key's shape, its
cell, the column and row it stands in, the rule readers' vote, and the page.

Every feature is a number in ``FEATURES``' order; a new feature is appended (the artifact names the
features it was trained on, and refuses a page read with others).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import get_args

import numpy as np
from skuflow_catalog.codes import code_score, is_measurement, is_package
from skuflow_catalog.headers import CJK, is_currency

from skuflow_contracts.results import ExtractionMethod, PageClassification
from skuflow_extractor.reading.candidates import (
    SOURCES,
    Candidate,
    cell_price,
    header_word,
    normalize,
    shape,
    worded,
)
from skuflow_extractor.reading.geometry import Geometry

HEADER_ROLES = ("model", "product_name", "price", "index")  # a column headed by one of these, or by another word
ORIGINS = ("table_row", "card", "line")
PAGE_TYPES = ("A", "B", "C", "D")
METHODS: tuple[str, ...] = get_args(ExtractionMethod)  # the rules' methods, their final fallback among them
SAME_SIZE = 0.05  # type sizes this share apart are one size (a heading stands out of its column by more)

CELL = ("code_score", "is_price", "chars", "tokens", "digits", "letters", "upper", "cjk", "size", "heading",
        "ocr_confidence", "x", "y", "width", "repeats")
COLUMN = ("col_cells", "col_codes", "col_prices", "col_unique", *(f"col_head_{r}" for r in HEADER_ROLES),
          "col_head_other", "col_cells_above", "col_cells_below", "col_worded", "col_same_shape", "col_rows_priced",
          "col_same_size")
ROW = ("row_cells", "row_prices", "row_codes", "row_rank", "row_chars", "row_candidates", "row_code_rank",
       "next_is_price", "row_engine", "col_engine", "share_of_row_chars")
KEY = ("kind_code", *(f"src_{s}" for s in SOURCES), "key_code_score", "key_chars", "key_tokens", "key_digits",
       "key_letters", "key_upper", "key_cjk", "key_whole_cell", "key_share_of_cell", "key_currency",
       "key_measurement", "key_package", "key_repeats", "key_cells_with", "has_price", "anchored",
       "shape_of_read", "shape_of_page", "prefix_of_read")
ENGINE = ("engine_confidence", *(f"engine_{o}" for o in ORIGINS), "engine_custom", "engine_has_name")
PAGE = (*(f"page_{t}" for t in PAGE_TYPES), "page_confidence", "page_cells", "page_rows", "page_ocr",
        "page_code_share", "page_engine_skus", "page_candidates", *(f"method_{m}" for m in METHODS))
FEATURES: tuple[str, ...] = (*KEY, *CELL, *COLUMN, *ROW, *ENGINE, *PAGE)
COLUMN_AT = {name: n for n, name in enumerate(COLUMN)}  # a column measure's place, by name


@lru_cache(maxsize=65536)
def _shape(text: str) -> tuple[float, ...]:
    """chars, tokens, digit share, letter share, upper share of letters, CJK share."""
    chars = max(len(text), 1)
    letters = [ch for ch in text if ch.isalpha() and not CJK.match(ch)]
    cjk = sum(1 for ch in text if CJK.match(ch))
    return (len(text), len(text.split()), sum(ch.isdigit() for ch in text) / chars, len(letters) / chars,
            sum(ch.isupper() for ch in letters) / len(letters) if letters else 0.0, cjk / chars)


def _cells(geo: Geometry) -> np.ndarray:
    """Per cell: CELL's measures."""
    width, height = max(geo.page.width, 1.0), max(geo.page.height, 1.0)
    sizes = [c.size for c in geo.cells]
    median_size = float(np.median(sizes)) if sizes else 10.0
    counts = Counter(normalize(c.text) for c in geo.cells)
    rows = []
    for c in geo.cells:
        chars, tokens, digits, letters, upper, cjk = _shape(c.text)
        rows.append((code_score(c.text), float(cell_price(c.text) is not None), chars, tokens, digits, letters,
                     upper, cjk, c.size / max(median_size, 1.0), float(c.heading),
                     c.confidence if c.confidence is not None else 1.0, (c.bbox[0] + c.bbox[2]) / 2 / width,
                     (c.bbox[1] + c.bbox[3]) / 2 / height, (c.bbox[2] - c.bbox[0]) / width,
                     counts[normalize(c.text)]))
    return np.array(rows, dtype=np.float32).reshape(len(geo.cells), len(CELL))


def _columns(geo: Geometry, cell: np.ndarray) -> np.ndarray:
    """Per cell: COLUMN's measures over the cells aligned with it in other rows (whole-page array
    arithmetic: a page of a few hundred cells is read in a millisecond)."""
    out = np.zeros((len(geo.cells), len(COLUMN)), dtype=np.float32)
    if not geo.cells:
        return out
    aligned = geo.aligned
    mates = aligned.sum(axis=1)
    normalized = [normalize(c.text) for c in geo.cells]
    texts = np.unique(normalized, return_inverse=True)[1].reshape(-1)
    ranked = np.sort(np.where(aligned, texts[None, :], -1), axis=1)
    distinct = np.count_nonzero((ranked[:, 1:] != ranked[:, :-1]) & (ranked[:, 1:] >= 0), axis=1) + (ranked[:, 0] >= 0)
    at = COLUMN_AT
    out[:, at["col_cells"]] = mates
    out[:, at["col_codes"]] = _column_share(aligned, cell[:, 0] >= 0.5)
    out[:, at["col_prices"]] = _column_share(aligned, cell[:, 1] > 0)
    out[:, at["col_unique"]] = np.divide(distinct, mates, out=np.zeros(len(mates)), where=mates > 0)
    tops = np.array([c.bbox[1] for c in geo.cells])
    above = aligned & (tops[None, :] < tops[:, None])
    heads = [header_word(c.text) for c in geo.cells]
    headed = above & np.array([h is not None for h in heads])[None, :]
    for i in np.flatnonzero(headed.any(axis=1)):
        head = heads[int(np.where(headed[i], tops, -np.inf).argmax())]
        out[i, at[f"col_head_{head if head in HEADER_ROLES else 'other'}"]] = 1.0
    out[:, at["col_cells_above"]] = above.sum(axis=1)
    out[:, at["col_cells_below"]] = mates - out[:, at["col_cells_above"]]
    out[:, at["col_worded"]] = _column_share(aligned, np.array([worded(c.text) for c in geo.cells], dtype=bool))
    shapes = np.unique([shape(text) for text in normalized], return_inverse=True)[1].reshape(-1)
    out[:, at["col_same_shape"]] = _column_share(aligned, shapes[:, None] == shapes[None, :])
    priced = np.zeros(len(geo.rows), dtype=bool)
    np.logical_or.at(priced, geo.row_of, cell[:, 1] > 0)
    out[:, at["col_rows_priced"]] = _column_share(aligned, priced[geo.row_of])
    size = cell[:, CELL.index("size")]
    same_size = np.abs(size[:, None] - size[None, :]) <= SAME_SIZE * size[:, None]
    out[:, at["col_same_size"]] = _column_share(aligned, same_size)
    return out


def _column_share(aligned: np.ndarray, flags: np.ndarray) -> np.ndarray:
    """Per cell: the share of the cells aligned with it (its column mates) that are flagged (per cell, or
    cells × cells: flagged as seen from the cell); 0 without mates."""
    mates = aligned.sum(axis=1)
    flagged = np.count_nonzero(aligned & (flags if flags.ndim == 2 else flags[None, :]), axis=1)
    return np.divide(flagged, mates, out=np.zeros(len(mates)), where=mates > 0)


@dataclass(frozen=True)
class _Rows:
    """What every candidate of a row shares, worked out once per row."""

    stats: dict[int, tuple[float, ...]]  # row → cells, prices, codes, chars, cells the rule readers read at
    scores: dict[int, list[float]]  # row → its candidates' code scores, highest first
    column_read: np.ndarray  # per cell: share of its column's other cells the rule readers read at


def _rows(geo: Geometry, cell: np.ndarray, in_row: dict[int, list[Candidate]], read: np.ndarray) -> _Rows:
    stats = {r: (len(row), float(cell[row, 1].sum()), float((cell[row, 0] >= 0.5).sum()), float(cell[row, 2].sum()),
                 float(read[row].sum())) for r, row in enumerate(geo.rows)}
    scores = {r: sorted((code_score(o.key) for o in found), reverse=True) for r, found in in_row.items()}
    return _Rows(stats, scores, _column_share(geo.aligned, read))


def features(geo: Geometry, found: list[Candidate], classification: PageClassification,
             method: str | None) -> np.ndarray:
    """One row of ``FEATURES`` per candidate."""
    cell = _cells(geo)
    column = _columns(geo, cell)
    engine_skus = sum(1 for c in found if c.engine is not None)
    page_row = [
        *(float(classification.page_type == t) for t in PAGE_TYPES), classification.page_type_confidence,
        len(geo.cells), len(geo.rows), float(geo.ocr), float((cell[:, 0] >= 0.5).mean()) if len(cell) else 0.0,
        engine_skus, len(found), *(float(method == m) for m in METHODS)]
    by_norm = Counter(c.norm for c in found)
    read_keys = [c.norm for c in found if c.engine is not None]
    shapes = Counter(shape(k) for k in read_keys)
    page_shapes = Counter(shape(c.norm) for c in found)
    prefixes = Counter(k[:2] for k in read_keys)
    kin = (shapes, page_shapes, prefixes, max(len(read_keys), 1), max(len(found), 1))
    normalized = "\x00".join(normalize(c.text) for c in geo.cells)
    in_row: dict[int, list[Candidate]] = {}
    for c in found:
        if c.cell is not None:
            in_row.setdefault(int(geo.row_of[c.cell]), []).append(c)
    read = np.zeros(len(geo.cells), dtype=bool)  # cells the rule readers read a product at
    read[[c.cell for c in found if c.engine is not None and c.cell is not None]] = True
    rows = _rows(geo, cell, in_row, read)
    out = np.array([[*_key(c, geo, by_norm, normalized, kin), *_anchor(c, geo, cell, column, rows),
                     *_engine(c), *page_row] for c in found], dtype=np.float32)
    return out.reshape(len(found), len(FEATURES))


def _key(c: Candidate, geo: Geometry, by_norm: Counter, normalized: str, kin: tuple) -> list[float]:
    chars, tokens, digits, letters, upper, cjk = _shape(c.key)
    shapes, page_shapes, prefixes, read, total = kin
    own = float(c.engine is not None)  # a read key is not evidence for itself
    cell_text = normalize(geo.cells[c.cell].text) if c.cell is not None else ""
    return [float(c.kind == "code"), *(float(s in c.sources) for s in SOURCES), code_score(c.key), chars, tokens,
            digits, letters, upper, cjk, float(cell_text == c.norm), len(c.norm) / max(len(cell_text), 1),
            float(is_currency(c.key)), float(is_measurement(c.key)), float(is_package(c.key)), by_norm[c.norm],
            normalized.count(c.norm) if c.norm else 0, float(c.price is not None),
            float(c.cell is not None), (shapes[shape(c.norm)] - own) / read, page_shapes[shape(c.norm)] / total,
            (prefixes[c.norm[:2]] - own) / read]


def _anchor(c: Candidate, geo: Geometry, cell: np.ndarray, column: np.ndarray, rows: _Rows) -> list[float]:
    if c.cell is None:
        return [0.0] * (len(CELL) + len(COLUMN) + len(ROW))
    row_index = int(geo.row_of[c.cell])
    row = geo.rows[row_index]
    cells, prices, codes, chars, read = rows.stats[row_index]
    scores = rows.scores.get(row_index, [])
    own = code_score(c.key)
    at = row.index(c.cell)
    row_stats = [cells, prices, codes, at, chars, len(scores), scores.index(own) if own in scores else len(scores),
                 float(at + 1 < len(row) and cell[row[at + 1], 1] > 0), read, float(rows.column_read[c.cell]),
                 len(c.key) / max(chars, 1.0)]
    return [*cell[c.cell], *column[c.cell], *row_stats]


def _engine(c: Candidate) -> list[float]:
    sku = c.engine
    if sku is None:
        return [0.0] * len(ENGINE)
    return [sku.confidence, *(float(sku.origin == o) for o in ORIGINS), len(sku.custom_attributes),
            float(bool(sku.attributes.product_name))]
