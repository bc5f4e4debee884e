"""pdfplumber's text-aligned table finder, for table structure only, fed with the glyphs MuPDF has
already read.

Letting pdfminer parse a page a second time cost about half the parse time of a table page; the
finder itself only reads characters and their words, so it is given MuPDF's glyphs in pdfminer's
geometry (the same rows and cells on all 187 golden table pages, about 3× faster). It is asked only
about pages whose text lines look tabular.

A rotated page whose text reads upright only *without* its rotation (a table turned sideways) is read
in the unrotated frame: its glyphs go back through the derotation matrix and the tables found come
forward to the displayed frame through the rotation matrix.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable

import pymupdf
from pdfplumber.table import Table, TableFinder, TableSettings
from pdfplumber.utils import extract_text, extract_words

from skuflow_contracts.ir import BBox, TableBlock, TableCell, TextBlock, union
from skuflow_parser.backends.pymupdf_backend import displayed
from skuflow_parser.domain.tables import continues_overleaf, header_rows, merge_headless_columns

TEXT_ALIGNED = TableSettings.resolve({"vertical_strategy": "text", "horizontal_strategy": "text"})
Placement = Callable[[tuple], BBox]  # a box of the frame the table was read in → the IR's frame


def _box(values: tuple) -> BBox:
    return tuple(round(float(v), 2) for v in values)  # type: ignore[return-value]


class GlyphPage:
    """What the table finder reads of a page: its characters and their words.

    Each glyph gets pdfminer's geometry, as tall as its font size and standing on MuPDF's bottom edge
    (the baseline plus the font's descent in both readers), so rows and cells split where pdfplumber's
    own characters would split them. (A base-14 font has no descriptor; pdfminer then takes the descent
    from its AFM files and MuPDF from the font it substitutes, so boxes may sit up to a point apart.)
    """

    def __init__(self, blocks: list[TextBlock], height: float, frame: pymupdf.Matrix | None = None) -> None:
        self.chars = []
        for span in (span for block in blocks for line in block.lines for span in line.spans):
            for char, box in zip(span.text, span.char_boxes, strict=True):
                x0, _, x1, bottom = displayed(box, frame)
                top = bottom - span.size
                self.chars.append({"text": char, "x0": x0, "x1": x1, "top": top, "bottom": bottom, "doctop": top,
                                   "width": x1 - x0, "height": span.size, "size": span.size, "upright": True})
        self.height = height

    def extract_words(self, **settings: object) -> list[dict]:
        return extract_words(self.chars, **settings)


def _inside(char: dict, box: tuple) -> bool:
    """pdfplumber's test: the character's middle lies in the box (left and top edges included)."""
    middle_x, middle_y = (char["x0"] + char["x1"]) / 2, (char["top"] + char["bottom"]) / 2
    return box[0] <= middle_x < box[2] and box[1] <= middle_y < box[3]


def cell_texts(table: Table, chars: list[dict]) -> list[list[str | None]]:
    """What ``Table.extract()`` returns, each row's characters found by bisecting the characters sorted
    by their middle height rather than by testing every character against every row (a third of a
    table page's parse time); the characters keep their page order."""
    middles = sorted(((char["top"] + char["bottom"]) / 2, i) for i, char in enumerate(chars))
    heights = [middle for middle, _ in middles]
    texts = []
    for row in table.rows:
        top, bottom = row.bbox[1], row.bbox[3]
        band = sorted(i for _, i in middles[bisect_left(heights, top):bisect_left(heights, bottom)])
        in_row = [chars[i] for i in band if _inside(chars[i], row.bbox)]
        texts.append([None if cell is None else extract_text([char for char in in_row if _inside(char, cell)])
                      for cell in row.cells])
    return texts


def read_tables(page: GlyphPage, place: Placement = _box) -> list[TableBlock]:
    found = []
    for table in TableFinder(page, TEXT_ALIGNED).tables:
        grid = [(row.cells, [(text or "").strip() for text in texts])
                for row, texts in zip(table.rows, cell_texts(table, page.chars), strict=True)]
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
                                    is_cross_page=continues_overleaf(table.bbox[3], page.height)))
    return found


def page_tables(page: pymupdf.Page, blocks: list[TextBlock], sideways: bool) -> list[TableBlock]:
    """Tables of a page from its text blocks (displayed frame), read upright or, for a table turned
    sideways, in the unrotated frame."""
    if not sideways:
        return read_tables(GlyphPage(blocks, page.rect.height))
    rotation = page.rotation_matrix
    return read_tables(GlyphPage(blocks, page.cropbox.height, page.derotation_matrix),
                       lambda box: displayed(box, rotation))
