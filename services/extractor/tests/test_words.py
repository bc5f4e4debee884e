"""Words placed by their own character boxes, visual rows and upright reading of skewed scans."""

import math

from extractor_pages import CHAR, block, lines_of, page, spanned, spanned_rtl, stacked

from skuflow_contracts.ir import TextLine, TextSpan, union
from skuflow_extractor.domain.grid import cell_rows
from skuflow_extractor.domain.words import page_lines, rows_of, split_words, straighten, turn


def test_words_take_the_union_of_their_character_boxes():
    words = split_words(spanned(100, 50, "CB-26551-PK  Pink"), index=7)
    assert [w.text for w in words] == ["CB-26551-PK", "Pink"]
    assert words[0].bbox == (100, 50, 100 + 11 * CHAR, 62)
    assert words[1].bbox[0] == 100 + 13 * CHAR and {w.line for w in words} == {7}


def test_a_right_to_left_word_is_boxed_from_its_leftmost_character_to_its_rightmost():
    words = split_words(spanned_rtl(300, 50, "ظرفيت روز"), index=0)
    assert [w.text for w in words] == ["ظرفيت", "روز"]
    assert words[0].bbox == (300 - 5 * CHAR, 50, 300, 62)  # read first, it stands on the right
    assert words[1].bbox == (300 - 9 * CHAR, 50, 300 - 6 * CHAR, 62)


def test_ocr_lines_without_character_boxes_spread_the_line_box_by_character_widths():
    words = split_words(TextLine(bbox=(0, 0, 54, 10), text="ab cd"), index=0)
    assert [(w.text, round(w.bbox[0]), round(w.bbox[2])) for w in words] == [("ab", 0, 24), ("cd", 30, 54)]
    mixed = split_words(TextLine(bbox=(0, 0, 35, 10), text="奶茶 55"), index=0)
    assert [(w.text, round(w.bbox[0]), round(w.bbox[2])) for w in mixed] == [("奶茶", 0, 20), ("55", 23, 35)]


def test_the_words_of_one_ocr_line_in_capitals_stay_one_cell():
    """Spread evenly, each space of 'LAVANDERIA (LAVADO Y PLANCHADO)' was a gap of 0.5 line heights,
    wider than the gap that parts two codes, and the heading stood over three columns."""
    line = TextLine(bbox=(71, 519, 273, 534), text="LAVANDERIA (LAVADO Y PLANCHADO)")
    [row] = cell_rows(page_lines(page(block(0, [line])), set()), tolerance=3)
    assert [cell.text for cell in row.cells] == ["LAVANDERIA (LAVADO Y PLANCHADO)"]


def test_two_amounts_of_one_ocr_line_stay_two_cells():
    """A menu's M and L prices, read by OCR as one line '30 35', are two cells."""
    line = TextLine(bbox=(75, 61, 93, 68), text="30 35")
    [row] = cell_rows(page_lines(page(block(0, [line])), set()), tolerance=3)
    assert [cell.text for cell in row.cells] == ["30", "35"]


def _ocr_line(x, y, text, advances):
    """An OCR line whose characters stand at ``advances`` (x of each, 4 points wide), as RapidOCR places them."""
    boxes = [(x + a, y, x + a + 4, y + 11) for a in advances]
    return TextLine(bbox=(x, y, boxes[-1][2], y + 11), text=text,
                    spans=[TextSpan(bbox=(x, y, boxes[-1][2], y + 11), text=text, size=11, char_boxes=boxes)])


def test_characters_of_an_ocr_line_spread_evenly_over_a_column_are_one_name():
    """A menu justifies '鱈魚肝' over the width of its longest name: 15 points between characters
    is a cell gap, but every gap is alike. Two cells on one OCR line leave one gap wider than the rest."""
    justified = _ocr_line(170, 100, "鱈魚肝180", [0, 19, 39, 46, 51, 56])
    two_cells = _ocr_line(170, 130, "紅茶奶茶", [0, 5, 30, 35])
    ocr_block = block(0, [justified, two_cells]).model_copy(update={"confidence": 0.9})
    lines = page_lines(page(ocr_block), set())
    assert [w.text for ln in lines for w in ln.words] == ["鱈魚肝180", "紅茶", "奶茶"]
    text_layer = page_lines(page(block(0, [justified])), set())
    assert [w.text for ln in text_layer for w in ln.words] == ["鱈", "魚", "肝180"]  # a text layer's gaps part cells


def test_a_short_name_justified_to_its_columns_width_as_lines_of_one_character_is_one_name():
    """'豆      瓣' under '泰式辣椒': the text layer prints each character as a line of its own, the
    first at the column's left edge and the last at its right. Two characters no name spans ('小 | 中'
    over two price columns) stay apart."""
    full = spanned(70, 100, "泰式辣椒", height=12)  # 70..94
    first, last = spanned(70, 120, "豆", height=12), spanned(88, 120, "瓣", height=12)
    sizes = [spanned(110, 80, "小", height=12), spanned(140, 80, "中", height=12)]
    lines = page_lines(page(block(0, [full]), block(1, [first]), block(2, [last]), block(3, sizes)), set())
    assert [[w.text for w in ln.words] for ln in lines] == [["小"], ["中"], ["泰式辣椒"], ["豆瓣"]]
    assert [ln.bbox for ln in lines][-1] == (70, 120, 94, 132)


def test_ocr_reading_a_units_l_as_a_capital_i_is_corrected_where_the_page_prints_both():
    """'20 Its' beside '40 lts': after an amount, OCR's capital I is the unit's lowercase l. A page
    that never prints 'lts' keeps what OCR read, and a text layer is never changed."""
    lines = [spanned(50, 100, "20 Its"), spanned(50, 120, "40 lts"), spanned(50, 140, "Its 12")]
    ocr = page_lines(page(block(0, lines).model_copy(update={"confidence": 0.9})), set())
    assert [ln.text for ln in ocr] == ["20 lts", "40 lts", "Its 12"]
    alone = page_lines(page(block(0, lines[:1]).model_copy(update={"confidence": 0.9})), set())
    assert [ln.text for ln in alone] == ["20 Its"]
    assert [ln.text for ln in page_lines(page(block(0, lines)), set())] == ["20 Its", "40 lts", "Its 12"]


def test_page_lines_skip_margin_blocks_and_blank_lines_and_read_top_to_bottom():
    blocks = [stacked(0, 50, 300, "lower"), stacked(1, 50, 20, "running header"),
              block(2, [spanned(50, 100, "upper"), TextLine(bbox=(50, 120, 90, 130), text="  ")], "heading")]
    lines = page_lines(page(*blocks), skip_blocks={1})
    assert [ln.text for ln in lines] == ["upper", "lower"]
    assert lines[0].heading and not lines[1].heading and lines[0].size == 10.0


def test_rows_group_lines_by_vertical_centre_within_the_tolerance():
    lines = lines_of(block(0, [spanned(300, 103, "b"), spanned(50, 100, "a"), spanned(50, 130, "c")]))
    assert [[ln.text for ln in row] for row in rows_of(lines, tolerance=4.0)] == [["a", "b"], ["c"]]
    assert len(rows_of(lines_of(block(0, [spanned(50, 100, "a"), spanned(300, 110, "b")])), 4.0)) == 2


def test_a_skewed_scan_is_read_upright_and_a_straight_page_is_left_alone():
    angle = 0.02
    tilted = []
    for r in range(3):
        for c, x in enumerate((50, 200, 350)):
            y = 100 + 30 * r + x * math.tan(angle)
            tilted.append(spanned(x, y, f"r{r}c{c}"))
    lines, turned = straighten(lines_of(block(0, tilted)))
    assert math.isclose(turned, angle, rel_tol=0.05)
    assert [[ln.text for ln in row] for row in rows_of(lines, 4.0)] == [
        [f"r{r}c{c}" for c in range(3)] for r in range(3)]
    straight = lines_of(stacked(0, 50, 100, "a", "b"))
    assert straighten(straight) == (straight, 0.0)


def test_turn_and_union():
    assert union([(0, 5, 10, 10), (5, 0, 20, 8)]) == (0, 0, 20, 10)
    box = turn(turn((10, 10, 20, 20), 0.1), -0.1)
    assert box[0] < 10 and box[2] > 20  # an axis-aligned box around a turned box only grows


def _sized(box, text, size):
    return TextLine(bbox=box, text=text, spans=[TextSpan(bbox=box, text=text, size=size)])


def test_a_watermark_set_across_the_page_at_an_angle_is_not_a_line_but_vertical_text_is():
    watermark = _sized((52, 174, 558, 680), "PRELIMINARY", 99.0)
    vertical = _sized((40, 300, 52, 420), "Артикул", 10.0)
    blocks = [stacked(0, 50, 200, "ESP32-C3FN4"), block(1, [watermark]), block(2, [vertical])]
    assert [ln.text for ln in page_lines(page(*blocks), set())] == ["ESP32-C3FN4", "Артикул"]


def test_a_name_set_at_a_cells_top_and_a_price_at_its_bottom_share_the_ruled_row():
    lines = lines_of(block(0, [spanned(121, 78, "CANCOM Care 36 Monate"), spanned(491, 84, "49,00 €"),
                               spanned(121, 102, "CANCOM Care 60 Monate"), spanned(491, 108, "59,00 €")]))
    rules = [(118, 71.9, 398, 71.9), (469, 71.9, 546, 71.9), (118, 95.9, 398, 95.9), (469, 95.9, 546, 95.9),
             (118, 119.9, 398, 119.9), (469, 119.9, 546, 119.9)]
    texts = [[ln.text for ln in row] for row in rows_of(lines, 4.0, rules)]
    assert texts == [["CANCOM Care 36 Monate", "49,00 €"], ["CANCOM Care 60 Monate", "59,00 €"]]
    assert len(rows_of(lines, 4.0)) == 4  # without rules they are four lines
    parted = [*rules, (469, 83.0, 546, 83.0)]  # a rule between the two parts them
    assert len(rows_of(lines, 4.0, parted)) == 3


def letter_spaced(groups: list[str], letter_gap: float, word_gap: float, width: float = 5.0) -> TextLine:
    """A text layer that prints a space after every character of letter-spaced text, each character
    with its box: ``letter_gap`` between the letters of a word, ``word_gap`` between words."""
    chars, x = [], 0.0
    for g, group in enumerate(groups):
        for c, ch in enumerate(group):
            chars.append((ch, (x, 0, x + width, 10)))
            x += width
            last = g == len(groups) - 1 and c == len(group) - 1
            if not last:
                gap = letter_gap if c < len(group) - 1 else word_gap
                chars.append((" ", (x, 0, x + gap, 10)))
                x += gap
    text = "".join(ch for ch, _ in chars)
    return TextLine(bbox=(0, 0, x, 10), text=text, spans=[TextSpan(bbox=(0, 0, x, 10), text=text, size=10,
                                                                    char_boxes=[box for _, box in chars])])


def test_letter_spaced_text_is_read_as_its_words():
    words = split_words(letter_spaced(["от", "620", "000"], letter_gap=1.5, word_gap=5.5), index=0)
    assert [w.text for w in words] == ["от", "620", "000"]
    assert words[1].bbox[0] == 2 * 5.0 + 1.5 + 5.5  # the word's box starts at its first letter


def test_single_characters_set_with_ordinary_spaces_stay_words():
    words = split_words(letter_spaced(["A", "1", "B", "2"], letter_gap=2.5, word_gap=2.5), index=0)
    assert [w.text for w in words] == ["A", "1", "B", "2"]


def test_a_cell_border_parts_a_price_from_the_note_beside_it_however_close():
    """'¥3,300' right-aligned against a border and '個室' just after it: two cells, not '¥3,300 個室'."""
    ruled = page(block(0, [spanned(100, 50, "¥3,300")]), block(1, [spanned(138.5, 50, "個室")]))
    [row] = cell_rows(page_lines(ruled.model_copy(update={"column_rules": [(137.0, 40.0, 137.0, 70.0)]}), set()), 3)
    assert [cell.text for cell in row.cells] == ["¥3,300", "個室"]
    [joined] = cell_rows(page_lines(ruled, set()), 3)
    assert [cell.text for cell in joined.cells] == ["¥3,300 個室"]


def test_two_cards_read_as_one_line_are_two_cells_at_the_repeated_label():
    line = TextLine(bbox=(30, 165, 201, 182), text="名称/Description:显示器支架 名称/Description:迷你蓝牙音箱")
    assert [ln.text for ln in page_lines(page(block(0, [line])), set())] == [
        "名称/Description:显示器支架", "名称/Description:迷你蓝牙音箱"]


def test_a_dot_leader_parts_a_dish_from_its_price_and_is_dropped():
    lines = page_lines(page(block(0, [spanned(20, 100, "80a. Mit Erdnusssoße ...... 16,90")])), set())
    assert [ln.text for ln in lines] == ["80a. Mit Erdnusssoße", "16,90"]
    assert lines[0].words[-1].walls[1] is not None  # the leader stands as the name's right border


def test_an_ellipsis_ending_a_list_is_no_leader():
    lines = page_lines(page(block(0, [spanned(20, 100, "Softs en canette (Coca-Cola, Fanta,...)")])), set())
    assert [ln.text for ln in lines] == ["Softs en canette (Coca-Cola, Fanta,...)"]
