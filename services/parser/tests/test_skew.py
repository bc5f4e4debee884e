"""A skewed scan's lines levelled: the skew read from the lines' own angles, and the boxes turned back."""

import math

import pytest

from skuflow_parser.domain.skew import MIN_SKEW, skew_degrees, turned


def line(x: float, y: float, width: float, degrees: float, height: float = 20) -> list[list[float]]:
    """A text line's four corners, its top edge leaning by ``degrees`` (y grows downwards)."""
    dx, dy = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return [[x, y], [x + width * dx, y + width * dy], [x + width * dx - height * dy, y + width * dy + height * dx],
            [x - height * dy, y + height * dx]]


def test_the_skew_is_the_common_angle_of_the_long_lines():
    lines = [line(100, 100 + 40 * n, 400, 2.0) for n in range(6)] + [line(50, 500, 30, 25.0)]  # a short word askew
    assert skew_degrees(lines) == pytest.approx(2.0, abs=0.01)


@pytest.mark.parametrize("lines", [
    [line(100, 100 + 40 * n, 400, 0.05) for n in range(6)],  # level within a pixel: left alone
    [line(100, 100, 400, 2.0), line(100, 140, 400, 2.0)],  # two lines say too little
    [line(100, 100 + 40 * n, 400, 30.0) for n in range(6)],  # text set at an angle: no scanner's skew
])
def test_a_level_page_or_too_little_evidence_is_not_turned(lines):
    assert skew_degrees(lines) == 0.0 and MIN_SKEW > 0.05


def test_turning_a_line_back_by_the_skew_levels_it_about_the_centre():
    corners = turned(line(100, 300, 400, 3.0), 3.0, (300, 300))
    assert corners[0][1] == pytest.approx(corners[1][1], abs=1e-6)
    assert turned(corners, 0.0, (300, 300)) == corners
