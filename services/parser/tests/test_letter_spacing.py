"""Letter-spaced Chinese: a reading that came apart into single characters and lines standing on end is
gathered into rows, and the rows' reading replaces it only where it reads the page's Chinese as well."""

import pytest

from skuflow_parser.domain.letter_spacing import Piece, is_loose, pieces, reads_across, rows, span


def box(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def test_a_reading_is_loose_when_many_of_its_chinese_lines_are_single_characters_or_stand():
    singles = [(box(100 * n, 0, 100 * n + 40, 40), "飯") for n in range(4)]
    standing = [(box(0, 60, 40, 300), "炸炸滷鮮"), (box(500, 60, 540, 300), "排排排排")]
    lying = [(box(0, 400, 300, 440), "紅燒牛肉麵120")] * 10
    assert is_loose(singles + standing + lying)  # 6 of 16 Chinese lines
    assert not is_loose(singles + standing + lying * 2)  # 6 of 26: a few stray characters
    assert not is_loose(singles + [(box(0, 400, 300, 440), "90 65")] * 4)  # only 4, however few lines
    assert not is_loose([(box(0, 0, 40, 300), "AB-510")] * 8)  # letters standing are a sideways page


def test_chinese_lines_are_cut_into_their_characters_and_other_lines_kept_whole():
    words = (("魚", box(0, 0, 40, 40)), ("椒", box(0, 60, 40, 100)))
    found = pieces([(box(0, 0, 40, 100), "魚椒", words), (box(300, 0, 380, 40), "90 65", ())])
    assert [(p.text, p.box, p.line, p.loose) for p in found] == [
        ("魚", (0, 0, 40, 40), 0, True), ("椒", (0, 60, 40, 100), 0, True), ("90 65", (300, 0, 380, 40), 1, False)]


def piece(x0: float, y0: float, text: str, loose: bool = True, height: float = 40) -> Piece:
    return Piece((x0, y0, x0 + 40 * len(text), y0 + height), text, 0, loose)


def test_rows_gather_pieces_of_like_height_and_are_cut_at_a_wide_gap():
    first = [piece(0, 0, "魚"), piece(150, 4, "肚"), piece(300, 0, "飯"), piece(500, 2, "90", loose=False)]
    second = [piece(0, 50, "大"), piece(300, 48, "飯")]
    far = [piece(2000, 50, "湯"), piece(2100, 50, "麵")]  # another column of the board, 40 heights away
    lying = [piece(0, 100, "紅燒牛肉麵", loose=False), piece(300, 100, "120", loose=False)]
    title = [piece(0, -80, "單", height=120)]  # three times as tall: a title, not a row's character
    found = rows(first + second + far + lying + title)
    assert [[p.text for p in row] for row in found] == [["魚", "肚", "飯", "90"], ["大", "飯"], ["湯", "麵"]]
    assert span(found[1]) == pytest.approx((-6.3, 41.7, 346.3, 96.3))  # 0.15 of its height (48 to 90) around it


def test_the_rows_reading_is_taken_where_it_reads_as_much_chinese_and_keeps_the_rest():
    detected = [(box(0, 0, 40, 300), "炸炸滷鮮", 0.9), (box(0, 0, 40, 40), "飯", 0.9), (box(0, 0, 80, 40), "65", 1.0)]
    gathered = [(box(0, 0, 400, 40), "炸雞排飯 65", 0.9), (box(0, 50, 400, 90), "滷排骨飯", 0.9)]
    assert reads_across(detected, gathered)
    across_columns = [(box(0, 0, 400, 40), "排排排排", 0.9)]  # true vertical text read across its columns
    assert not reads_across([(box(0, 0, 300, 40), "牛肉湯麵四十元", 0.9)], across_columns)
    lost_codes = [(box(0, 0, 400, 40), "型號型號", 0.9)]
    assert not reads_across([(box(0, 0, 400, 40), "STC8H1K08-36I-TSSOP20 1.20", 0.9)], lost_codes)
