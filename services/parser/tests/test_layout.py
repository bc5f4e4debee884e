"""Spans with character boxes, block types and reading order in the IR."""

import pymupdf

from skuflow_contracts.ir import TextBlock
from skuflow_parser.backends.pymupdf_backend import ImageCache, open_document
from skuflow_parser.domain.layout import block_type, reading_order
from skuflow_parser.pages import parse_page


def block(i, box, text, size=10.0):
    return TextBlock(block_id=i, bbox=box, text=text, font_size=size)


def test_every_character_of_a_text_layer_has_a_box():
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "型号 AB-1", fontname="china-s", fontsize=12)
    page = parse_page(open_document(doc.tobytes()), 0, "0" * 64, ImageCache()).page
    [span] = page.text_blocks[0].lines[0].spans
    assert span.text == "型号 AB-1" and len(span.char_boxes) == len(span.text) and span.size == 12
    first, last = span.char_boxes[0], span.char_boxes[-1]
    assert first[0] == 72 and first[0] < last[0] and page.reading_order == [0]


def test_block_types_from_typography_and_position():
    picture = (50, 100, 250, 300)
    assert block_type(block(0, (50, 20, 400, 50), "2026 新品目录", size=24), 10, []) == "heading"
    assert block_type(block(1, (50, 305, 250, 318), "图1 保温杯"), 10, [picture]) == "caption"
    assert block_type(block(2, (50, 400, 500, 412), "• 304 不锈钢内胆"), 10, []) == "list_item"
    prose = "本产品采用食品级材料，适合家庭与办公使用。" * 3
    assert block_type(block(3, (50, 450, 500, 520), prose), 10, []) == "paragraph"


def test_two_columns_are_read_column_by_column_under_a_full_width_title():
    blocks = [block(0, (320, 100, 540, 120), "right top"), block(1, (40, 300, 280, 320), "left bottom"),
              block(2, (40, 100, 280, 120), "left top"), block(3, (40, 40, 540, 70), "full-width title"),
              block(4, (320, 300, 540, 320), "right bottom")]
    assert reading_order(blocks, 595) == [3, 2, 1, 0, 4]
