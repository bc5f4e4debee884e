"""Which way up a scan reads: standing lines of letters make a page worth turning; the recognizer's
confident reading of lying lines decides the turn."""

from skuflow_parser.domain.orientation import MARGIN, better_turn, lying_weight, standing_share


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
