"""Image rules: fragmented pictures (tiles forming one photo), decorations too small to be a product
picture, and what counts as a picture's area."""

from __future__ import annotations

from skuflow_contracts.ir import BBox, union

TILE_GAP = 2.0  # points: tiles of one picture touch or nearly touch
MIN_TILES = 4
DECORATION_MAX_SIDE = 12.0  # points (~4 mm): bullets, tiny icons and rules; never a product picture or a logo


def area(box: BBox) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def is_decoration(box: BBox, floor: float = DECORATION_MAX_SIDE) -> bool:
    """Shorter side on the page below the floor: recorded by its box, neither stored nor hashed."""
    return min(box[2] - box[0], box[3] - box[1]) < floor


def _adjacent(a: BBox, b: BBox) -> bool:
    return (a[0] - TILE_GAP <= b[2] and b[0] - TILE_GAP <= a[2]
            and a[1] - TILE_GAP <= b[3] and b[1] - TILE_GAP <= a[3])


def tile_groups(boxes: list[BBox]) -> list[list[int]]:
    """Indexes of images that tile one picture: ≥ MIN_TILES touching boxes filling their union."""
    parent = list(range(len(boxes)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            if _adjacent(boxes[i], boxes[j]):
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(len(boxes)):
        groups.setdefault(root(i), []).append(i)
    return [members for members in groups.values() if len(members) >= MIN_TILES
            and sum(area(boxes[i]) for i in members) >= 0.9 * area(union([boxes[i] for i in members]))]


def picture_share(boxes: list[BBox], width: float, height: float) -> float:
    """Share of the page covered by pictures: their areas summed (overlaps count twice), capped at 1."""
    covered = sum(area(b) for b in boxes)
    return min(1.0, covered / (width * height)) if width and height else 0.0
