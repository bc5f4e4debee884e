"""Columns of a table that prints no header, inferred from what its cells hold.

Used when a page starts with product rows and there is no header to inherit (the table's first
page failed, or the catalog never printed one): cells are grouped into columns by their left
edges, and a column is named by its content: model codes, prices, sizes, colours, materials, else
the first text column is the name. Columns that cannot be named are left out rather than guessed.
"""

from __future__ import annotations

import re

from skuflow_contracts.vocabulary import COLOR_WORDS, MATERIAL_WORDS, MODEL_CODE, parse_price
from skuflow_extractor.domain.words import Line

ALIGN = 6.0  # points: cells of one column start this close
SIZE = re.compile(r"^\d[\d.,×x*\-~ ]*\s*(ml|l|cm|mm|m|kg|g|inch|in|w|v|寸|升|毫升|厘米|米|克|千克)$", re.IGNORECASE)


def _names(text: str, words: tuple[str, ...]) -> bool:
    lowered = text.lower()
    return len(text) <= 24 and any(word in lowered for word in words)


def _kind(text: str) -> str:
    if MODEL_CODE.fullmatch(text):
        return "model"
    if SIZE.match(text):
        return "size"
    if parse_price(text):
        return "price"
    if len(text) <= 8 and _names(text, COLOR_WORDS):
        return "color"
    if _names(text, MATERIAL_WORDS):
        return "material"
    return "text"


def infer_columns(rows: list[list[Line]]) -> tuple[tuple[str | None, float], ...] | None:
    """(attribute, left edge) per column, or None when the rows do not look like one table."""
    lefts: list[list[Line]] = []
    for line in sorted((line for row in rows for line in row), key=lambda ln: ln.bbox[0]):
        if lefts and line.bbox[0] - lefts[-1][0].bbox[0] <= ALIGN:
            lefts[-1].append(line)
        else:
            lefts.append([line])
    columns = [cells for cells in lefts if len(cells) * 2 >= len(rows)]
    named: list[tuple[str | None, float]] = []
    taken: set[str] = set()
    for cells in columns:
        kinds = [_kind(cell.text) for cell in cells]
        kind = max(set(kinds), key=kinds.count)
        # names come before materials, and a name often holds a material word ('玻璃杯', 'Glass Tumbler')
        names_first = kind == "material" and "product_name" not in taken
        attribute = "product_name" if kind == "text" or names_first else kind
        if attribute in taken or kinds.count(kind) * 3 < len(kinds) * 2:
            attribute = None
        taken.add(attribute or "")
        named.append((attribute, cells[0].bbox[0]))
    return tuple(named) if "model" in taken and len(taken - {""}) >= 2 else None
