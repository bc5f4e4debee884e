"""Stage 1, geometry: the page as cells in rows and columns, the units every later stage reasons over.

A cell is a run of words set together (``domain.words.page_lines`` parts a text line at wide gaps and
drawn borders); cells whose vertical centres agree share a row; cells that overlap in x across rows
share a column. Nothing here knows what a product is.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import numpy as np

from skuflow_contracts.ir import BBox, ParsedPage
from skuflow_extractor.domain.words import Line, Upright, rows_of, upright_lines

ROW_TOLERANCE = 3.0  # points: centres this close share a row whatever the cells' heights
ALIGNED = 0.5  # two cells share a column when their x-ranges overlap by this share of the narrower


@dataclass(frozen=True)
class Geometry:
    page: ParsedPage
    cells: list[Line]  # in reading order; ``cells[i].index == i``
    rows: list[list[int]]  # cell indices, rows top to bottom, cells left to right
    row_of: np.ndarray  # cell index → row
    aligned: np.ndarray  # cells × cells: shares a column (and is another row)
    median_height: float
    upright: Upright  # the page's lines as the rule readers and the cross-page check take them, and its skew

    @property
    def ocr(self) -> bool:
        return self.page.parser_backend == "ocr"


def geometry(page: ParsedPage) -> Geometry:
    upright = upright_lines(page)
    cells = [Line(n, *_fields(line)) for n, line in enumerate(upright.lines)]
    rows = [[line.index for line in row] for row in rows_of(cells, ROW_TOLERANCE)] if cells else []
    row_of = np.zeros(len(cells), dtype=np.int32)
    for r, row in enumerate(rows):
        row_of[row] = r
    height = statistics.median(c.height for c in cells) if cells else 10.0
    return Geometry(page, cells, rows, row_of, _aligned(cells, row_of), max(height, 1.0), upright)


def _fields(line: Line) -> tuple:
    return line.text, line.bbox, line.size, line.heading, line.words, line.confidence, line.block


def _aligned(cells: list[Line], row_of: np.ndarray) -> np.ndarray:
    if not cells:
        return np.zeros((0, 0), dtype=bool)
    box = np.array([c.bbox for c in cells], dtype=float)
    x0, x1 = box[:, 0], box[:, 2]
    shared, narrower = _shared_width(x0[:, None], x1[:, None], x0[None, :], x1[None, :])
    return (shared >= ALIGNED * narrower) & (row_of[:, None] != row_of[None, :])


def same_column(a: BBox, b: BBox) -> bool:
    """Whether two boxes share a column as two cells of ``aligned`` do (a picture and a name, say)."""
    shared, narrower = _shared_width(a[0], a[2], b[0], b[2])
    return bool(shared >= ALIGNED * narrower)


def _shared_width(a0, a1, b0, b1):
    """How wide the x-ranges a0–a1 and b0–b1 overlap, and the narrower one's width (numbers or arrays)."""
    return np.minimum(a1, b1) - np.maximum(a0, b0), np.maximum(np.minimum(a1 - a0, b1 - b0), 1e-6)
