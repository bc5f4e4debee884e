"""Block types and reading order, from geometry and typography alone."""

from __future__ import annotations

import re
import statistics

from skuflow_contracts.ir import BBox, BlockType, TextBlock

HEADING_SIZE_RATIO = 1.3  # a block this much larger than the page's usual text is a heading
CAPTION_GAP = 12.0  # points between a picture's bottom edge and its caption
LIST_MARKER = re.compile(r"^\s*(?:[•·\-–—*●○■□▪◆◇]|\d{1,2}[.)、]|[（(]\d{1,2}[）)]|[一二三四五六七八九十]+、)\s*")
COLUMN_GAP = 20.0


def block_type(block: TextBlock, body_size: float, pictures: list[BBox]) -> BlockType:
    short = len(block.text) <= 40 and len(block.lines) <= 2
    if LIST_MARKER.match(block.text):
        return "list_item"
    if short and any(0 <= block.bbox[1] - p[3] <= CAPTION_GAP and block.bbox[0] < p[2] and p[0] < block.bbox[2]
                     for p in pictures):
        return "caption"
    if short and body_size and block.font_size >= HEADING_SIZE_RATIO * body_size:
        return "heading"
    return "paragraph"


def with_block_types(blocks: list[TextBlock], pictures: list[BBox]) -> list[TextBlock]:
    body = statistics.median(b.font_size for b in blocks) if blocks else 0.0
    return [b.model_copy(update={"block_type": block_type(b, body, pictures)}) for b in blocks]


def reading_order(blocks: list[TextBlock], page_width: float) -> list[int]:
    """Full-width blocks and columns top to bottom; within a band of columns, column by column."""
    half = page_width / 2

    def key(block: TextBlock) -> tuple[float, int, float]:
        x0, y0, x1, _ = block.bbox
        spans_both = x0 < half - COLUMN_GAP and x1 > half + COLUMN_GAP
        column = 0 if spans_both or x1 <= half + COLUMN_GAP else 1
        return (column, y0, x0)

    return [b.block_id for b in sorted(blocks, key=key)]
