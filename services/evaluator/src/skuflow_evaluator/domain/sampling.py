"""Which pages the evaluator scores (seed-001a §7.7 step 3): every page of a short document, an even
spread (first and last included) of a long one; blank pages never."""

from __future__ import annotations


def select_pages(total: int, blank_pages: list[int], *, full_below: int, size: int) -> list[int]:
    blank = set(blank_pages)
    pages = [p for p in range(1, total + 1) if p not in blank]
    if len(pages) < full_below or len(pages) <= size:
        return pages
    step = (len(pages) - 1) / (size - 1)
    return sorted({pages[round(i * step)] for i in range(size)})
