"""A text layer's characters as the page prints them.

Two artefacts of TeX-made PDFs read wrong although the page looks right:
- accents set as separate spacing glyphs over their letter (OT1 encoding): 'Th´e' prints 'Thé';
- the euro sign of the TeX euro fonts (``feymr10``…), which sits at the code of 'e': '0,50e' prints
  '0,50€', and a price list loses every price.
"""

from __future__ import annotations

import re
import unicodedata

from skuflow_contracts.ir import BBox

# spacing accent → its combining mark
SPACING_ACCENTS = {"´": "\u0301", "`": "\u0300", "ˆ": "\u0302", "˜": "\u0303", "¨": "\u0308", "¸": "\u0327",
                   "ˇ": "\u030c", "˘": "\u0306", "˚": "\u030a", "¯": "\u0304", "˙": "\u0307", "˝": "\u030b"}
OVER_LETTER = 0.5  # an accent overlaps this much of the narrower of it and the letter: it is set over the letter
EURO_FONT = re.compile(r"(?:^|[-+])fey[a-z]{2}\d{1,2}$", re.IGNORECASE)  # TeX's euro fonts: feymr10, feybb10…


def _over(a: BBox, b: BBox) -> bool:
    overlap = min(a[2], b[2]) - max(a[0], b[0])
    narrower = min(a[2] - a[0], b[2] - b[0])
    return narrower > 0 and overlap >= OVER_LETTER * narrower


def _accented(a: tuple[str, BBox], b: tuple[str, BBox]) -> tuple[str, BBox] | None:
    """Two neighbouring characters as one where one is a spacing accent set over the other, a letter
    (in either order: an acute comes before its letter, a cedilla may follow it), and the accented
    letter exists as one character; it keeps the letter's box."""
    (accent, _), letter = (a, b) if a[0] in SPACING_ACCENTS else (b, a)
    if accent not in SPACING_ACCENTS or not letter[0].isalpha() or not _over(a[1], b[1]):
        return None
    composed = unicodedata.normalize("NFC", letter[0] + SPACING_ACCENTS[accent])
    return (composed, letter[1]) if len(composed) == 1 else None


def printed_glyphs(chars: list[tuple[str, BBox]], font: str) -> list[tuple[str, BBox]]:
    """The characters of one span with accents put on the letters they are set over and a euro
    font's glyphs read as the euro sign; each keeps the letter's box."""
    if EURO_FONT.search(font):
        return [("€" if c in "eE" else c, box) for c, box in chars]
    out: list[tuple[str, BBox]] = []
    i = 0
    while i < len(chars):
        joined = _accented(chars[i], chars[i + 1]) if i + 1 < len(chars) else None
        out.append(joined or chars[i])
        i += 2 if joined else 1
    return out
