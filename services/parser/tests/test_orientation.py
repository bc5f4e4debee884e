"""Which way up a scan reads: standing lines of letters make a page worth turning; the recognizer's
confident reading of lying lines decides the turn. Chinese read across columns repeats characters side
by side; the reading down the columns is taken when it reads the Chinese clearly better."""

import pytest

from skuflow_parser.domain.orientation import (
    MARGIN,
    better_turn,
    lying_weight,
    may_be_vertical,
    read_weight,
    reads_down,
    repeated_share,
    standing_share,
)


def box(width: float, height: float) -> list[list[float]]:
    return [[0, 0], [width, 0], [width, height], [0, height]]


def test_only_lines_of_letters_and_digits_standing_on_end_count():
    assert standing_share([(box(20, 200), "AB-510 hinge"), (box(20, 120), "21.90"), (box(200, 20), "Price")]) == 2 / 3
    vertical_chinese = [(box(30, 240), "牛肉麵一百二十元"), (box(30, 200), "陽春麵五十元")]
    assert standing_share(vertical_chinese) == 0.0
    assert standing_share([(box(20, 60), "AB")]) == 0.0  # too short to say


def test_a_turn_is_taken_only_when_its_lying_lines_read_clearly_better():
    lying = lying_weight([(box(200, 20), "AB-510 hinge", 0.9), (box(20, 200), "standing", 0.9)])
    assert lying == 0.9 * len("AB-510 hinge")
    assert better_turn(1.0, {90: 30.0, 270: 4.0}) == 90
    assert better_turn(25.0, {90: 25.0 * MARGIN, 270: 4.0}) == 0
    assert better_turn(0.0, {}) == 0


def test_a_reading_across_columns_of_chinese_is_told_by_its_equal_neighbours():
    across = [(box(300, 30), "湯麵湯麵湯麵"), (box(300, 30), "元元元元元元"), (box(300, 30), "牛豬酸蛋")]
    assert repeated_share(across) == 5 / 13 and may_be_vertical(across)
    horizontal = [(box(300, 30), "牛肉麵一百二十元"), (box(300, 30), "陽春麵五十元")]
    assert repeated_share(horizontal) == 0.0 and not may_be_vertical(horizontal)
    assert may_be_vertical([(box(30, 240), "牛肉麵一百二十元"), (box(30, 200), "陽春麵五十元整")])  # columns found


def test_the_reading_down_the_columns_is_taken_only_when_its_chinese_clearly_outweighs():
    across = [(box(300, 30), "湯麵湯麵", 0.9), (box(300, 30), "元元元元", 0.9)]
    down = [(box(300, 30), "牛肉湯麵四十元", 0.9), (box(300, 30), "豬肉湯麵五十元", 0.9)]
    assert read_weight(across) == pytest.approx(0.9 * (4 + 4 - 2 * 3))  # each equal neighbour counts against it
    assert read_weight([(box(300, 30), "AB-510 湯麵", 0.5)], chinese_only=True) == pytest.approx(0.5 * 2)
    assert reads_down(across, down)
    horizontal = [(box(300, 30), "牛肉湯麵四十元", 0.9), (box(300, 30), "豬肉湯麵五十元", 0.9)]
    assert not reads_down(horizontal, down)
    assert not reads_down(horizontal, [(box(30, 300), "牛肉湯麵四十元", 0.9)])  # standing lines read nothing
    table = [(box(300, 30), "STC8H1K08-36I-TSSOP20 1.20", 0.9) for _ in range(6)] + [(box(300, 30), "型號", 0.9)]
    headings = [(box(300, 30), "工作電壓範圍", 0.9), (box(300, 30), "程序存儲器", 0.9)]
    assert not reads_down(table, headings)  # its Chinese read better turned, but the rows of codes lost
