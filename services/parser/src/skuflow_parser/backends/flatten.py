"""A photographed page flattened: the sheet's four corners found in the photo and the picture warped
so the sheet is a rectangle again (OpenCV), before OCR reads it.

A phone held at an angle prints the rows of a price list as converging lines and the columns as a
fan; the reader, which groups words by rows and columns, then sees neither. The sheet is taken to be
the largest convex quadrilateral of strong edges that covers a good share of the photo. Nothing of
the photo is cut away: the whole picture goes through the same warp, so text outside the quadrilateral
(a sheet found as its table's frame) is still read. A quadrilateral that is already a rectangle
(however turned) is left alone: skew is ``skew``'s business, not a warp's.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

WORK_SIDE = 800  # the photo is searched for its sheet at this size
MIN_SHEET = 0.3  # share of the photo a sheet covers at least
MAX_SHEET = 0.97  # a sheet filling more is the whole photo: nothing to flatten
SQUARE = 3.0  # degrees: corners closer to right angles than this, and ...
PARALLEL = 0.03  # ... opposite sides equal within this share, make a rectangle, not a perspective
MAX_SIDE = 3000  # the flattened picture's longest side (pixels)


def _ordered(points: np.ndarray) -> np.ndarray:
    """Top-left, top-right, bottom-right, bottom-left."""
    by_sum, by_diff = points.sum(axis=1), np.diff(points, axis=1).ravel()
    return np.array([points[by_sum.argmin()], points[by_diff.argmin()], points[by_sum.argmax()],
                     points[by_diff.argmax()]], dtype=np.float32)


def sheet(image: np.ndarray) -> np.ndarray | None:
    """The sheet's corners (ordered, in pixels of ``image``) where a photo shows one in perspective."""
    height, width = image.shape[:2]
    scale = WORK_SIDE / max(height, width)
    small = cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_RGB2GRAY), (5, 5), 0)
    edges = cv2.dilate(cv2.Canny(grey, 50, 150), np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    area = small.shape[0] * small.shape[1]
    for contour in sorted(contours, key=cv2.contourArea, reverse=True)[:8]:
        if cv2.contourArea(contour) < MIN_SHEET * area:
            return None
        approx = cv2.approxPolyDP(contour, 0.02 * cv2.arcLength(contour, True), True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            corners = _ordered(approx.reshape(4, 2).astype(np.float32))
            if cv2.contourArea(corners) > MAX_SHEET * area or _rectangle(corners):
                return None
            return corners / scale
    return None


def _rectangle(corners: np.ndarray) -> bool:
    sides = [np.linalg.norm(corners[(i + 1) % 4] - corners[i]) for i in range(4)]
    if min(sides) == 0:
        return True
    equal = all(abs(sides[i] - sides[i + 2]) <= PARALLEL * max(sides[i], sides[i + 2]) for i in (0, 1))
    square = all(abs(_angle(corners[i - 1], corners[i], corners[(i + 1) % 4]) - 90) <= SQUARE for i in range(4))
    return equal and square


def _angle(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> float:
    u, v = a - b, c - b
    return math.degrees(math.acos(float(np.clip(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)), -1, 1))))


def flattened(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The whole photo warped so that ``corners`` become a rectangle of the sheet's own size."""
    tl, tr, br, bl = corners
    width = max(np.linalg.norm(tr - tl), np.linalg.norm(br - bl))
    height = max(np.linalg.norm(bl - tl), np.linalg.norm(br - tr))
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    warp = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    h, w = image.shape[:2]
    frame = cv2.perspectiveTransform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], dtype=np.float32), warp)[0]
    low, high = frame.min(axis=0), frame.max(axis=0)
    fit = min(1.0, MAX_SIDE / float(max(high - low)))
    move = np.array([[fit, 0, -low[0] * fit], [0, fit, -low[1] * fit], [0, 0, 1]], dtype=np.float64)
    size = (round(float(high[0] - low[0]) * fit), round(float(high[1] - low[1]) * fit))
    return cv2.warpPerspective(image, move @ warp, size, borderValue=(255, 255, 255))
