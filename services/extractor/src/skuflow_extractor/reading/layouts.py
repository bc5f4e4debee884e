"""A page's layout: where its columns start, so that pages set alike are known as alike.

The signature is the page's kind (a text layer or an OCR reading) and the left edges of the columns
that hold several cells, in fortieths of the page's width. Two pages are alike when at least half of
their column edges meet within a fortieth (pages of one table differ by a column a page leaves empty
or a note set across it: 't:12.23' and 't:11.20.24' are one price list; a stricter bar of 0.7 called
half the real set's repeated layouts apart, ``docs/reader.md``). A job's pages are named by the
first signature they are alike to (``canonical``), so a layout is one string downstream (collab
clusters its review queue by it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from skuflow_extractor.reading.geometry import Geometry

BINS = 40  # a column edge is placed to a fortieth of the page's width
COLUMN_CELLS = 3  # an edge where at least this many cells of different rows start
ALIKE = 0.5  # the share of column edges two pages must share


def fortieth(geo: Geometry, cell: int) -> int:
    """Where the cell starts across the page, in fortieths of its width."""
    return _across(geo, geo.cells[cell].bbox[0])


def middle(geo: Geometry, cell: int) -> int:
    """Where the cell's middle stands across the page, in fortieths of its width (centred text's column)."""
    box = geo.cells[cell].bbox
    return _across(geo, (box[0] + box[2]) / 2)


def _across(geo: Geometry, x: float) -> int:
    return min(BINS - 1, int(x / max(geo.page.width, 1.0) * BINS))


def layout_of(geo: Geometry) -> str | None:
    """The page's signature, None for a page with no columns (prose, a picture)."""
    aligned = geo.aligned.sum(axis=1) if len(geo.cells) else []
    starts = Counter(fortieth(geo, cell.index)
                     for cell, others in zip(geo.cells, aligned, strict=True) if others >= COLUMN_CELLS - 1)
    edges = sorted(edge for edge, count in starts.items() if count >= COLUMN_CELLS)
    if len(edges) < 2:
        return None
    return f"{'o' if geo.ocr else 't'}:{'.'.join(f'{e:02d}' for e in _merged(edges))}"


def _merged(edges: list[int]) -> list[int]:
    """Adjacent fortieths are one edge (a column's cells start a hair apart)."""
    kept: list[int] = []
    for edge in edges:
        if not kept or edge - kept[-1] > 1:
            kept.append(edge)
    return kept


def _edges(signature: str) -> tuple[str, list[int]]:
    kind, _, edges = signature.partition(":")
    return kind, [int(e) for e in edges.split(".") if e]


def alike(a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return False
    (kind_a, edges_a), (kind_b, edges_b) = _edges(a), _edges(b)
    if kind_a != kind_b:
        return False
    met = sum(1 for e in edges_a if any(abs(e - f) <= 1 for f in edges_b))
    return met / max(len(edges_a), len(edges_b)) >= ALIKE


def canonical(signature: str | None, known: Iterable[str]) -> str | None:
    """The first known layout the page is alike to, else its own signature."""
    return next((k for k in known if alike(signature, k)), signature)
