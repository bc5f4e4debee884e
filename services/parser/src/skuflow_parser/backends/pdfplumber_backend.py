"""pdfplumber backend, for table structure only: ~75x slower than PyMuPDF on text, so it is asked
only about pages whose text lines look tabular, and it opens the document once.

pdfplumber applies /Rotate itself, so on a page whose text reads upright as displayed its boxes are
already in the IR's frame. A rotated page whose text reads upright only *without* the rotation (a
table turned sideways) is read on an unrotated copy of the page and its boxes turned to the
displayed frame with the page's rotation matrix.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import pdfplumber
import pymupdf

from skuflow_contracts.ir import BBox, TableBlock, TableCell, union
from skuflow_parser.backends.pymupdf_backend import displayed, unrotated_copy
from skuflow_parser.domain.tables import continues_overleaf, header_rows, merge_headless_columns

TEXT_ALIGNED = {"vertical_strategy": "text", "horizontal_strategy": "text"}
Placement = Callable[[tuple], BBox]  # a box of the page pdfplumber read → the IR's frame


def _box(values: tuple) -> BBox:
    return tuple(round(float(v), 2) for v in values)  # type: ignore[return-value]



def read_tables(page: pdfplumber.page.Page, place: Placement = _box) -> list[TableBlock]:
    found = []
    for table in page.find_tables(table_settings=TEXT_ALIGNED):
        grid = [(row.cells, [(text or "").strip() for text in texts])
                for row, texts in zip(table.rows, table.extract(), strict=True)]
        grid = [(boxes, texts) for boxes, texts in grid if any(texts)]
        used = [col for col in range(max((len(t) for _, t in grid), default=0))
                if any(col < len(t) and t[col] for _, t in grid)]  # text alignment leaves empty columns
        rows, groups = merge_headless_columns(
            [[texts[col] if col < len(texts) else "" for col in used] for _, texts in grid])
        cells = [TableCell(row=r, col=c, bbox=place(union([boxes[used[i]] for i in group
                                                           if used[i] < len(boxes) and boxes[used[i]]])),
                           text=rows[r][c])
                 for r, (boxes, _) in enumerate(grid) for c, group in enumerate(groups) if rows[r][c]]
        if len(rows) >= 2:
            found.append(TableBlock(table_id=len(found), bbox=place(table.bbox), rows=rows, cells=cells,
                                    header_rows=header_rows(rows),
                                    is_cross_page=continues_overleaf(table.bbox[3], float(page.height))))
    return found


def sideways_tables(page: pymupdf.Page) -> list[TableBlock]:
    """Tables of a rotated page whose text reads upright without its /Rotate, in the displayed frame."""
    matrix = page.rotation_matrix
    with pdfplumber.open(io.BytesIO(unrotated_copy(page))) as copy:
        return read_tables(copy.pages[0], lambda box: displayed(box, matrix))


class TableReader:
    def __init__(self, pdf: bytes) -> None:
        self._pdf = pdf
        self._document: pdfplumber.PDF | None = None

    def tables(self, index: int) -> list[TableBlock]:
        """Tables of a page whose text reads upright as displayed."""
        if self._document is None:
            self._document = pdfplumber.open(io.BytesIO(self._pdf))
        return read_tables(self._document.pages[index])

    def close(self) -> None:
        if self._document is not None:
            self._document.close()
