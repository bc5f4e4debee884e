"""Rules a page draws (row borders, cell edges, row shading): the extractor splits a table's rows and
columns at them where words alone would run together.

The parser finds no table structure of its own: the extractor reads tables from word geometry and
these rules (docs/decisions.md, "Backends and tables").
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from skuflow_contracts.ir import BBox

MIN_RULE = 20.0  # points: a shorter line is a tick, an underline or a glyph part
THIN = 2.0  # points: a line or rectangle this thin is a rule
MIN_COLUMN_RULE = 6.0  # points: a vertical rule at least this tall borders a cell
MAX_ROW_BOX = 60.0  # points: a box up to this tall is a cell or a shaded row, whose edges are rules
MAX_PATHS = 5000


def _fill(path: dict) -> tuple | None:
    return tuple(path["fill"]) if path.get("fill") is not None else None


def _shading(drawings: list[dict]) -> dict[tuple, dict[int, list[BBox]]]:
    """Boxes filled without an outline, by fill colour and by each point of height they span: the
    boxes whose inner edges nobody sees, looked up by the height of an edge (a sheet of shaded cells
    would otherwise make every edge scan every box)."""
    shades: dict[tuple, dict[int, list[BBox]]] = {}
    for path in drawings:
        if path.get("type") == "f" and path.get("fill") is not None:
            for box in (tuple(item[1]) for item in path.get("items", ()) if item[0] == "re"):
                if box[3] - box[1] > THIN:
                    by_height = shades.setdefault(_fill(path), {})
                    for y in range(math.floor(box[1]), math.floor(box[3]) + 1):
                        by_height.setdefault(y, []).append(box)
    return shades


def _inside(y: float, x0: float, x1: float, by_height: dict[int, list[BBox]]) -> bool:
    """An edge at ``y`` from ``x0`` to ``x1`` lies within one of the boxes (not on its border)."""
    return any(b[0] - 1 <= x0 and x1 <= b[2] + 1 and b[1] + 0.5 < y < b[3] - 0.5
               for b in by_height.get(math.floor(y), ()))


def _drawn(drawings: list[dict]) -> Iterator[tuple[str, dict, BBox]]:
    """Each line ('l', as drawn from one end to the other) and rectangle ('re') a page's paths draw;
    nothing on pages drawn with more than ``MAX_PATHS`` paths, which are artwork, not tables."""
    if len(drawings) > MAX_PATHS:
        return
    for path in drawings:
        for item in path.get("items", ()):
            if item[0] == "l":
                yield "l", path, (*item[1], *item[2])
            elif item[0] == "re":
                yield "re", path, tuple(item[1])


def column_rules(drawings: list[dict]) -> list[BBox]:
    """Vertical rules a page draws (cell borders between columns): thin lines and rectangles at least
    a short cell tall, and the side edges of stroked boxes; each once. Excel and Word tables print
    a price and the note beside it closer than any gap between words would tell apart."""
    found: set[tuple[float, float, float]] = set()
    for kind, path, (x0, y0, x1, y1) in _drawn(drawings):
        if kind == "l" and abs(x1 - x0) <= THIN and abs(y1 - y0) >= MIN_COLUMN_RULE:
            found.add((round((x0 + x1) / 2, 1), round(min(y0, y1), 1), round(max(y0, y1), 1)))
        elif kind == "re" and y1 - y0 >= MIN_COLUMN_RULE:
            if x1 - x0 <= THIN:
                found.add((round((x0 + x1) / 2, 1), round(y0, 1), round(y1, 1)))
            elif "s" in (path.get("type") or ""):
                found |= {(round(x, 1), round(y0, 1), round(y1, 1)) for x in (x0, x1)}
    return [(x, y0, x, y1) for x, y0, y1 in sorted(found)]


def horizontal_rules(drawings: list[dict]) -> list[BBox]:
    """Horizontal rules a page draws: thin lines and rectangles, and the top and bottom edges of
    row-sized boxes (cell borders, row shading), at least ``MIN_RULE`` points long; each once.
    A shading box's edge inside a box shaded the same colour is no rule: nothing shows there (Word
    shades each line of a cell's text again in the cell's colour)."""
    shades = _shading(drawings) if len(drawings) <= MAX_PATHS else {}
    found: set[tuple[float, float, float]] = set()
    for kind, path, (x0, y0, x1, y1) in _drawn(drawings):
        if kind == "l":
            if abs(y1 - y0) <= THIN and abs(x1 - x0) >= MIN_RULE:
                found.add((round(min(x0, x1)), round((y0 + y1) / 2, 1), round(max(x0, x1))))
        elif x1 - x0 >= MIN_RULE and y1 - y0 <= THIN:
            found.add((round(x0), round((y0 + y1) / 2, 1), round(x1)))
        elif x1 - x0 >= MIN_RULE and y1 - y0 <= MAX_ROW_BOX:
            same = shades.get(_fill(path), {}) if path.get("type") == "f" else {}
            found |= {(round(x0), round(y, 1), round(x1)) for y in (y0, y1) if not _inside(y, x0, x1, same)}
    return [(x0, y, x1, y) for x0, y, x1 in sorted(found, key=lambda r: (r[1], r[0]))]
