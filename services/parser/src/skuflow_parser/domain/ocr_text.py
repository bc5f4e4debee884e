"""What OCR predictably misreads on a price page, set right from the page's other lines.

- A currency sign read as the letter it resembles ('P2,300' among '₱2,050', '₱1,950'): where several
  lines of the page are an amount behind one sign, a lone amount behind a look-alike of that sign is
  the same sign. A sign after amounts that OCR read as some other script's letter ('380,00 Ł',
  '485,00 Đ' for ₺) on several lines is a currency it could not read.
- Two prices read as one number ('2530' for '25 30'): the recognizer placed them apart, so the
  line's words are placed where it saw them (``placed``) and a gutter between them parts them.
- One line detected as two overlapping boxes, the letter in the overlap read by both
  (``overlapping``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

LOOK_ALIKES = {"₱": "P", "$": "Ss", "¥": "Y半羊", "€": "ECe", "£": "Ef", "₩": "W", "₹": "R"}
SIGNED = re.compile(r"(?P<sign>\S)(?P<amount>\d{1,3}(?:[,.]\d{3})*(?:[.,]\d{1,2})?)")
MIN_LINES = 3  # lines of a page printing an amount behind a sign before its look-alikes are read as it
SIGNED_AFTER = re.compile(r"(?P<amount>\d{1,3}(?:[,.]\d{3})*(?:[.,]\d{1,2})?) ?(?P<sign>\S)")
UNREAD_SIGN = "¤"  # the generic currency sign: a currency OCR could not read
KNOWN_SIGNS = "¤$€£¥₽₺₩₫₹₴৳₱฿₦₸%‰°"  # signs the price grammar reads (or a percentage, a degree)
SAME_ROW = 0.6  # share of the lower box's height two boxes must share to stand on one row
GUTTER = 0.5  # line heights: a wider gap between two words OCR read without a space parts two cells


def repaired(texts: list[str]) -> list[str]:
    """The page's OCR line texts with look-alike currency signs set right."""
    return _signs_after(_signs_before(texts))


def _odd_sign(match: re.Match | None) -> bool:
    """A character after an amount that is no letter of a Latin word, no digit, no Chinese or Japanese
    and no currency the price grammar knows: a sign OCR could not read ('380,00 Ł' for '380,00 ₺')."""
    if match is None:
        return False
    sign = match.group("sign")
    return not sign.isascii() and not _wide(sign) and sign not in KNOWN_SIGNS


def _signs_after(texts: list[str]) -> list[str]:
    """Where several lines of the page end in an amount and such a sign, each sign is a currency's
    that OCR misread (the generic sign ¤ stands for it, one character for one, so the line's boxes
    still fit)."""
    found = [SIGNED_AFTER.fullmatch(t) for t in texts]
    if sum(1 for m in found if _odd_sign(m)) < MIN_LINES:
        return texts
    return [t[:m.start("sign")] + UNREAD_SIGN if _odd_sign(m) else t for t, m in zip(texts, found, strict=True)]


def _signs_before(texts: list[str]) -> list[str]:
    signed = [m.group("sign") for t in texts if (m := SIGNED.fullmatch(t)) and m.group("sign") in LOOK_ALIKES]
    if not signed:
        return texts
    sign = max(set(signed), key=signed.count)
    if signed.count(sign) < MIN_LINES:
        return texts
    out = []
    for text in texts:
        match = SIGNED.fullmatch(text)
        misread = match is not None and match.group("sign") in LOOK_ALIKES[sign]
        out.append(sign + match.group("amount") if misread else text)
    return out


Box = tuple[float, float, float, float]


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in "WF"


def placed(text: str, words: list[tuple[str, Box]]) -> tuple[str, list[Box]] | None:
    """The line's text and one box per character, from where the recognizer placed each word: a
    word's characters share its box evenly, a space spans the gap between two words. Words the
    recognizer set apart by a gutter without a space between them ('2530' read as '25' and '30', more
    than half a line height apart) get one; letter-spaced digits ('1 2 0') and Chinese characters
    (each placed on its own) stay together. None where the words do not spell the text."""
    if not words or "".join(word for word, _ in words) != "".join(text.split()):
        return None
    chars: list[str] = []
    boxes: list[Box] = []
    at = 0
    for word, (x0, y0, x1, y1) in words:
        spaced = at < len(text) and text[at].isspace()
        at = len(text) - len(text[at:].lstrip()) + len(word)
        gutter = bool(boxes) and x0 - boxes[-1][2] >= GUTTER * (y1 - y0)
        if chars and (spaced or (gutter and not (_wide(chars[-1]) or _wide(word[0])))):
            chars.append(" ")
            boxes.append((boxes[-1][2], y0, max(x0, boxes[-1][2]), y1))
        step = (x1 - x0) / len(word)
        chars += word
        boxes += [(x0 + k * step, y0, x0 + (k + 1) * step, y1) for k in range(len(word))]
    return "".join(chars), boxes


@dataclass(frozen=True)
class Fragment:
    """One detected line: its box, text, confidence and its characters' boxes (empty where unknown)."""

    box: Box
    text: str
    confidence: float
    chars: tuple[Box, ...] = ()


def same_row(a: Box, b: Box) -> bool:
    """Two boxes sharing ``SAME_ROW`` of the lower one's height stand on one row."""
    return min(a[3], b[3]) - max(a[1], b[1]) >= SAME_ROW * min(a[3] - a[1], b[3] - b[1])


def overlapping(fragments: list[Fragment]) -> list[Fragment]:
    """One line detected as two boxes that overlap, the character in the overlap read by both ('Ignore'
    and 'e all previous instructions…'): joined into one line with that character once, in the
    reading order of its first box, its characters spread over the joined box again. Boxes of two
    cards that merely touch read no character twice and stay apart."""
    out: list[tuple[int, Fragment]] = []
    for n in sorted(range(len(fragments)), key=lambda n: (fragments[n].box[0], fragments[n].box[1])):
        fragment = fragments[n]
        host = next((k for k, (_, kept) in enumerate(out) if same_row(kept.box, fragment.box)
                     and kept.box[0] < fragment.box[0] < kept.box[2] and kept.text[-1:] == fragment.text[:1]), None)
        if host is None:
            out.append((n, fragment))
            continue
        first, kept = out[host]
        text = fragment.text[1:]
        box = (kept.box[0], min(kept.box[1], fragment.box[1]), max(kept.box[2], fragment.box[2]),
               max(kept.box[3], fragment.box[3]))
        spaced = not (_wide(kept.text[-1:] or "x") and _wide(text.lstrip()[:1] or "x"))
        out[host] = (first, Fragment(box, f"{kept.text} {text.strip()}" if spaced else kept.text + text.strip(),
                                     min(kept.confidence, fragment.confidence)))
    return [fragment for _, fragment in sorted(out, key=lambda item: item[0])]
