"""When a page's text layer can be trusted, and when the page must be OCR'd instead.

The seed accepts a backend when ``text_coverage > 0.1`` with coverage = len(raw_text) / page
area; in points that needs ~50,000 characters on an A4 page, so no catalog page would ever pass.
Here coverage is the share of the page covered by text boxes (reported in the IR), and a text
layer is accepted when it is not garbled and either has enough characters or covers more than
the threshold. Chinese PDFs often carry a broken ToUnicode map: the text then extracts as a mix
of scripts, control and unassigned code points, which ``garbled_share`` measures.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache

TEXT_COVERAGE_THRESHOLD = 0.1
MIN_TEXT_CHARS = 20
MAX_GARBLED_SHARE = 0.2
MIN_PICTURE_SHARE = 0.3  # a sparse page is worth OCR only if pictures (a scan) cover this much of it
MIN_OUTLINE_PATHS = 300  # … or this many vector paths draw it (text converted to outlines)
MIN_OUTLINE_SEGMENTS = 2000  # … or this many path segments: some exporters (Qt) draw a whole text run as one path
MIN_TEXT_PICTURES = 40  # … or this many pictures print it (Word sets text with effects as a picture per run)
SCRIPTS = ("LATIN", "CYRILLIC", "GREEK", "HANGUL", "HIRAGANA", "KATAKANA", "ARABIC", "HEBREW", "THAI", "DEVANAGARI",
           "BENGALI", "TAMIL", "ARMENIAN", "GEORGIAN", "GURMUKHI", "GUJARATI", "KHMER", "LAO", "MYANMAR")
EXTRA_PLAUSIBLE = set("¥￥€£°±×÷·•–—‘’“”…、。，：；！？（）【】《》「」〔〕％＃＆＊＋－／＜＝＞＠＼＾＿｀｜～")


@dataclass(frozen=True)
class TextLayerRule:
    coverage_threshold: float = TEXT_COVERAGE_THRESHOLD
    min_chars: int = MIN_TEXT_CHARS
    max_garbled_share: float = MAX_GARBLED_SHARE
    min_picture_share: float = MIN_PICTURE_SHARE
    min_outline_paths: int = MIN_OUTLINE_PATHS
    min_outline_segments: int = MIN_OUTLINE_SEGMENTS
    min_text_pictures: int = MIN_TEXT_PICTURES


@dataclass(frozen=True)
class Drawn:
    """How much of a page is drawn as vector paths: their number and their segments (lines, curves)."""

    paths: int = 0
    segments: int = 0

    @classmethod
    def of(cls, drawings: list[dict]) -> Drawn:
        return cls(len(drawings), sum(len(d.get("items", ())) for d in drawings))


@cache
def _is_plausible(char: str) -> bool:
    """Characters a catalog is written in: letters of the world's common scripts (Latin with its
    accents, Cyrillic, Greek, Hangul, Kana, Arabic, Thai, Indic…), the CJK ideographs of GBK (simplified
    and traditional Chinese), and common symbols (GB2312's). A broken ToUnicode map yields control
    codes, private-use and unassigned code points and rare ideographs instead."""
    if char.isascii():
        return char.isprintable()
    if char in EXTRA_PLAUSIBLE or unicodedata.category(char) == "Zs":
        return True
    name = unicodedata.name(char, "")
    if name.startswith("CJK UNIFIED IDEOGRAPH"):
        return _encodes(char, "gbk")
    if name.startswith(SCRIPTS):
        return True
    return _encodes(char, "gb2312")


def _encodes(char: str, codec: str) -> bool:
    try:
        char.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


def garbled_share(text: str) -> float:
    """Share of non-space characters that no catalog would contain."""
    chars = [c for c in text if not c.isspace()]
    if not chars:
        return 0.0
    return sum(1 for c in chars if not _is_plausible(c)) / len(chars)


def ocr_reason(text: str, coverage: float, picture_share: float, rule: TextLayerRule = TextLayerRule(),
               drawn: Drawn = Drawn(), pictures: int = 0) -> str | None:
    """None when the text layer is usable; otherwise why the page must be OCR'd.

    A sparse page without a large picture (a cover, a blank page) has nothing more to read, so it
    keeps its text layer, unless it is covered with vector paths: text converted to outlines (a
    common 'print ready' export) reads as nothing but prints as a full page. Glyph outlines come as
    hundreds of paths, or as a few paths of thousands of segments (measured on the real and golden sets'
    sparse pages: every outlined one had ≥ 2 767 segments, no other had 20 paths or 300 segments).
    Text can be printed as pictures too: Word exports a run set with effects as a tiny image whose
    soft mask holds the glyphs, one per run, so the page places many small pictures and covers
    little (sparse pages of the sets: those printed so placed 63 to 142 pictures, no other more than 26).
    """
    chars = sum(1 for c in text if not c.isspace())
    if chars and garbled_share(text) > rule.max_garbled_share:
        return "garbled_text_layer"
    sparse = chars < rule.min_chars and coverage <= rule.coverage_threshold
    if sparse and picture_share >= rule.min_picture_share:
        return "no_text_layer" if chars == 0 else "sparse_text_layer"
    if sparse and (drawn.paths >= rule.min_outline_paths or drawn.segments >= rule.min_outline_segments):
        return "outlined_text"
    if sparse and pictures >= rule.min_text_pictures:
        return "text_as_pictures"
    return None
