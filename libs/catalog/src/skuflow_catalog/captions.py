"""Product grids that name their products only under their pictures.

A page of like-sized photos, each with a short line right below it ('Ananas' under a bag of sweets),
lists products by name even without a code or a price. One photo with a caption is a figure; three
or more of one size, each captioned, are a product grid.
"""

from __future__ import annotations

from statistics import median

BBox = tuple[float, float, float, float]

THUMBNAIL = 40.0  # points: a lower picture is an icon or a swatch, not a product photo
GRID_MIN = 3  # captioned pictures of one size that make a product grid
SIZE_SPREAD = 0.45  # pictures of one grid differ in height by at most this share of the median
BELOW = 0.35  # a caption starts within this many picture heights below the picture ...
TUCKED = 0.15  # ... or at most this many into its bottom edge (text set over the photo's margin)
CAPTION_MAX = 40  # characters: a longer line is a description, not a name


def _caption_of(picture: BBox, lines: list[tuple[BBox, str]]) -> int | None:
    """The first short line right below the picture, mostly within its width."""
    height = picture[3] - picture[1]
    below = [i for i, (box, text) in enumerate(lines)
             if picture[3] - TUCKED * height <= box[1] <= picture[3] + BELOW * height
             and min(box[2], picture[2]) - max(box[0], picture[0]) >= 0.5 * (box[2] - box[0])
             and 0 < len(text.strip()) <= CAPTION_MAX and any(ch.isalpha() for ch in text)]
    return min(below, key=lambda i: lines[i][0][1], default=None)


def captioned(pictures: list[BBox], lines: list[tuple[BBox, str]]) -> list[tuple[int, int]]:
    """(picture, line) index pairs of a product grid's captions, in reading order; none unless at
    least ``GRID_MIN`` pictures of about one height each have their own caption. Thumbnails name nothing."""
    pairs = [(p, c) for p, picture in enumerate(pictures)
             if picture[3] - picture[1] >= THUMBNAIL and (c := _caption_of(picture, lines)) is not None]
    shared = {c for _, c in pairs if sum(1 for _, other in pairs if other == c) > 1}  # a heading under a row
    pairs = [(p, c) for p, c in pairs if c not in shared]
    if len(pairs) < GRID_MIN:
        return []
    typical = median(pictures[p][3] - pictures[p][1] for p, _ in pairs)
    grid = [(p, c) for p, c in pairs if abs(pictures[p][3] - pictures[p][1] - typical) <= SIZE_SPREAD * typical]
    if len(grid) < GRID_MIN:
        return []
    return sorted(grid, key=lambda pc: (round(pictures[pc[0]][1] / typical), pictures[pc[0]][0]))
