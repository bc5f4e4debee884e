"""Comparison tables whose part numbers are printed in two rows: a series over its suffixes.

Datasheets' selection tables (one product per column) often print the shared series once, in a
cell merged over the columns it covers, and each column's suffix below it: 'Air32F103' over
'CBT6 | CCT6 | RPT6', 'MH32F103C' over 'CBT6' beside 'MH32F103A' over four more, or 'MM32F103' repeated
over 'VET/VCT | RET/RCT | …'. The orderable part number is series + suffix. The text layer does
not say which columns a merged cell covers; a merged cell's text is centred over them, so the
suffixes are cut into consecutive groups whose centres best match the series cells' centres.
"""

from __future__ import annotations

from itertools import combinations, pairwise

from skuflow_catalog.codes import code_score

from skuflow_extractor.domain.drafts import SkuDraft, custom_label
from skuflow_extractor.domain.grid import Cell, Row

MIN_SUFFIXES = 3  # suffix cells that make a row of part-number endings
SUFFIX_CHARS = (3, 8)  # a suffix is this long ('CBT6', 'VET/VCT'): not a size letter, not a code of its own
MAX_SUFFIXES = 16  # more than this is not one header row of a comparison table
SERIES_CODE = 0.5  # code evidence of a series cell


def _centre(cell: Cell) -> float:
    return (cell.bbox[0] + cell.bbox[2]) / 2


def _is_series(text: str) -> bool:
    return text.isascii() and " " not in text and code_score(text) >= SERIES_CODE


def _is_suffix(text: str) -> bool:
    bare = text.replace("/", "").replace("-", "")
    return (text.isascii() and bare.isalnum() and bare == bare.upper() and not bare.isdigit()
            and SUFFIX_CHARS[0] <= len(text) <= SUFFIX_CHARS[1])


def _groups(series: list[Cell], suffixes: list[Cell]) -> list[list[Cell]]:
    """Suffixes (left to right) cut into one consecutive group per series cell, so that each series
    cell stands as near the middle of its group as possible."""
    best: tuple[float, list[list[Cell]]] | None = None
    for cuts in combinations(range(1, len(suffixes)), len(series) - 1):
        bounds = [0, *cuts, len(suffixes)]
        groups = [suffixes[a:b] for a, b in pairwise(bounds)]
        cost = sum(abs(_centre(s) - (_centre(g[0]) + _centre(g[-1])) / 2) for s, g in zip(series, groups, strict=True))
        if best is None or cost < best[0]:
            best = (cost, groups)
    return best[1] if best else []


def series_parts(upper: Row, lower: Row) -> list[tuple[str, Cell]]:
    """The part numbers (series + suffix, with the suffix's cell) of a series row over a suffix row,
    or none: the lower row prints at least three suffixes, more than the series row prints distinct
    series, and every series cell stands over the suffixes."""
    suffixes = sorted((c for c in lower.cells if _is_suffix(c.text)), key=_centre)
    if not MIN_SUFFIXES <= len(suffixes) <= MAX_SUFFIXES or len({c.text for c in suffixes}) < len(suffixes):
        return []
    left, right = suffixes[0].bbox[0], suffixes[-1].bbox[2]
    series = sorted((c for c in upper.cells if _is_series(c.text) and left <= _centre(c) <= right), key=_centre)
    if not series or len({c.text for c in series}) >= len(suffixes) or len(series) > len(suffixes):
        return []
    return [(head.text + tail.text, tail) for head, group in zip(series, _groups(series, suffixes), strict=True)
            for tail in group]


def series_drafts(rows: list[Row], i: int) -> list[SkuDraft]:
    """SKUs of a comparison table whose part numbers rows ``i`` and ``i + 1`` print as series over
    suffixes; each takes the values printed below its suffix, labelled by the row's first cell."""
    if i + 1 >= len(rows):
        return []
    parts = series_parts(rows[i], rows[i + 1])
    if not parts:
        return []
    drafts = []
    for code, cell in parts:
        draft = SkuDraft(origin="table_row", boxes=[cell.bbox])
        draft.set("model", code)
        drafts.append(draft)
    centres = [_centre(cell) for _, cell in parts]
    for row in rows[i + 2:]:
        label, *values = row.cells
        if label.bbox[2] > parts[0][1].bbox[0]:  # no row label left of the products
            continue
        for value in values:
            nearest = min(range(len(centres)), key=lambda k: abs(centres[k] - _centre(value)))
            drafts[nearest].custom.setdefault(custom_label(label.text), value.text)
    return drafts
