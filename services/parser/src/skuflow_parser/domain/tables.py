"""When a page holds a table worth asking the (slow) table backend about, and how to read its rows."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator

from skuflow_catalog.headers import attribute_for_label

from skuflow_contracts.ir import BBox, TextLine

ROW_TOLERANCE = 4.0
MIN_CELLS, MIN_ROWS = 3, 3
MIN_RULE = 20.0  # points: a shorter line is a tick, an underline or a glyph part
THIN = 2.0  # points: a line or rectangle this thin is a rule
MIN_COLUMN_RULE = 6.0  # points: a vertical rule at least this tall borders a cell
MAX_ROW_BOX = 60.0  # points: a box up to this tall is a cell or a shaded row, whose edges are rules
MAX_PATHS = 5000
CROSS_PAGE_MARGIN = 0.1  # a table ending in the bottom 10% of the page may continue overleaf


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


def looks_tabular(line_boxes: list[BBox]) -> bool:
    """At least three text rows of at least three cells each (boxes in the frame the text reads
    upright in): pdfplumber is worth its time here."""
    centres = sorted((box[1] + box[3]) / 2 for box in line_boxes)
    rows, current, last = 0, 0, None
    for centre in centres:
        if last is not None and centre - last <= ROW_TOLERANCE:
            current += 1
        else:
            rows += current >= MIN_CELLS
            current = 1
        last = centre
    rows += current >= MIN_CELLS
    return rows >= MIN_ROWS


def reading_rotation(lines: list[TextLine]) -> int | None:
    """How far most lines' reading direction is turned clockwise on the displayed page (0, 90, 180
    or 270), from their first and last character boxes; None without a line of two characters."""
    turns: Counter[int] = Counter()
    for line in lines:
        chars = [box for span in line.spans for box in span.char_boxes]
        if len(chars) < 2:
            continue
        dx = (chars[-1][0] + chars[-1][2] - chars[0][0] - chars[0][2]) / 2
        dy = (chars[-1][1] + chars[-1][3] - chars[0][1] - chars[0][3]) / 2
        if abs(dx) >= abs(dy):
            turns[0 if dx > 0 else 180] += 1
        else:
            turns[90 if dy > 0 else 270] += 1
    return turns.most_common(1)[0][0] if turns else None


def header_rows(rows: list[list[str]]) -> int:
    """1 when the first row is made of attribute labels (型号, Price, …), else 0."""
    if not rows:
        return 0
    return int(sum(1 for cell in rows[0] if cell and attribute_for_label(cell)) >= 2)


def continues_overleaf(bottom: float, page_height: float) -> bool:
    return bottom >= page_height * (1 - CROSS_PAGE_MARGIN)


def merge_headless_columns(rows: list[list[str]]) -> tuple[list[list[str]], list[list[int]]]:
    """Under a header row, a column without a header is the overflow of its left neighbour
    ("Steel mug | 0"): join it back. Returns the rows and, per kept column, the source columns."""
    if not rows or not header_rows(rows) or not rows[0] or not rows[0][0]:
        return rows, [[col] for col in range(len(rows[0]) if rows else 0)]
    groups: list[list[int]] = []
    for col, label in enumerate(rows[0]):
        if label or not groups:
            groups.append([col])
        else:
            groups[-1].append(col)
    merged = [[" ".join(row[c] for c in group if c < len(row) and row[c]) for group in groups] for row in rows]
    return merged, groups


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
