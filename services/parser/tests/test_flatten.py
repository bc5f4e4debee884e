"""A photographed sheet found in its photo and warped flat; scans and turned rectangles left alone."""

import cv2
import numpy as np
import pytest

from skuflow_parser.backends.flatten import flattened, sheet

SHEET = np.array([[0, 0], [600, 0], [600, 800], [0, 800]], dtype=np.float32)


def photo(corners: np.ndarray, size: tuple[int, int] = (1000, 1200)) -> np.ndarray:
    """A ruled white sheet drawn where ``corners`` say, on a dark table."""
    paper = np.full((800, 600, 3), 250, np.uint8)
    for y in range(60, 760, 40):
        cv2.line(paper, (40, y), (560, y), (30, 30, 30), 2)
    warp = cv2.getPerspectiveTransform(SHEET, corners.astype(np.float32))
    return cv2.warpPerspective(paper, warp, size, borderValue=(60, 50, 40))


def test_a_sheet_photographed_at_an_angle_is_found_and_flattened_to_a_rectangle():
    corners = np.array([[220, 150], [780, 210], [860, 1050], [140, 1100]], dtype=np.float32)
    found = sheet(photo(corners))
    assert found is not None and np.abs(found - corners).max() < 12
    flat = flattened(photo(corners), found)
    assert len(thin_dark_bands(flat)) >= 15  # the ruled lines come out level
    assert len(thin_dark_bands(photo(corners))) < 5  # where in the photo they slope across the strip


def thin_dark_bands(image: np.ndarray) -> list[int]:
    """Runs of rows, across a 300-pixel strip in the middle, that are dark all along and at most 8
    rows high: a level rule crosses the strip as one; a sloping one never darkens a whole row."""
    middle = image.shape[1] // 2
    dark = (cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)[:, middle - 150:middle + 150] < 128).all(axis=1)
    bands, start = [], None
    for y, row in enumerate([*dark, False]):
        if row and start is None:
            start = y
        elif not row and start is not None:
            if y - start <= 8:
                bands.append(start)
            start = None
    return bands


@pytest.mark.parametrize("corners", [
    np.array([[100, 100], [700, 100], [700, 900], [100, 900]], dtype=np.float32),  # a flat scan of a sheet
    np.array([[130, 90], [728, 111], [700, 910], [102, 889]], dtype=np.float32),  # turned 2°: skew, not perspective
])
def test_a_rectangle_however_turned_is_not_warped(corners):
    assert sheet(photo(corners)) is None


def test_a_photo_without_a_sheet_is_left_alone():
    assert sheet(np.full((900, 700, 3), 255, np.uint8)) is None
