"""Traditional Chinese as OCR reads it. The Chinese recognition models answer some Traditional
glyphs with their Simplified forms ('飛鸿白色内衣' for '飛鴻白色內衣'); on a page that is plainly
written in Traditional, those are set back, so one page spells its products in one script."""

from __future__ import annotations

from functools import cache

import opencc

TRADITIONAL_MIN = 5  # characters only Traditional writes that show a page is written in it
TRADITIONAL_RATIO = 1.25  # … outnumbering the Simplified-only ones (OCR answers many with Simplified)


@cache
def _converter(config: str) -> opencc.OpenCC:
    return opencc.OpenCC(config)


def _changed(text: str, config: str) -> int:
    converted = _converter(config).convert(text)
    return sum(1 for a, b in zip(text, converted, strict=False) if a != b)


def written_in_traditional(texts: list[str]) -> bool:
    joined = "".join(texts)
    traditional, simplified = _changed(joined, "t2s"), _changed(joined, "s2t")
    return traditional >= TRADITIONAL_MIN and traditional >= TRADITIONAL_RATIO * simplified


def in_one_script(texts: list[str]) -> list[str]:
    """The page's OCR texts, with Simplified forms set to Traditional on a Traditional page."""
    if not written_in_traditional(texts):
        return texts
    return [_converter("s2tw").convert(text) for text in texts]
