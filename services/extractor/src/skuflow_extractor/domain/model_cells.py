"""The codes a table's model cell prints, read from the cell and from the column it stands in.

A model cell may list several codes (each an SKU of its row), start with a code and describe it
after, print a family's name before its one code, or end in a flag printed beside the code
('-SALE%'); a word that starts most cells of the column is their series, part of each code, never a
code of its own. Under a header that names the column as the code, plainer cells count too (a short
number, digits in groups, a word in capitals): the header says they are codes.
"""

from __future__ import annotations

import re
from collections import Counter

from skuflow_catalog.codes import code_score, find_codes, item_number, leading_code

from skuflow_extractor.domain.roles import ColumnRole

LIST_SEPARATORS = re.compile(r"[,，;；、]\s*")
JOINERS = "-/.–_"  # a code broken at one of these continues on the next line
CODE_MIN = 0.35  # a model cell scoring below this is not a code (a heading, a note, a wrapped line)
LIST_EVIDENCE = 0.9  # code evidence of codes listed in one cell
LISTED_LENGTH = 0.5  # codes listed apart by spaces are at least this share of the longest one's length
LEADING_EVIDENCE = 0.8  # code evidence of a code that starts a cell with a description after it
NAMED_EVIDENCE = 0.6  # … of a plain number under a header naming the code column
DIGIT_GROUPS = re.compile(r"\d{2,6}(?: \d{2,6}){1,4}")  # an article number printed in groups of digits
# a code of capitals alone, its parts joined ('RSMW', 'NN-LLED-MODULE-DEVILEYES-SEIN'), read as one under a header
# naming the code
LETTER_CODE = re.compile(r"[A-Z]{3,12}|[A-Z]{2,12}(?:[-/.][A-Z]{1,12})+")
NAMED_CODE_MAX = 12  # characters of a plain cell read as a code under a header naming the code column
TAG_ROWS = 3  # cells a trailing flag must end to be a flag and not part of a code


def listed_codes(text: str) -> list[str]:
    """Several codes listed in one cell ('N32G430C6L7, N32G430K6L7'), each an SKU of the row. A list
    wrapped over lines loses its separator at the line end: codes that stand apart by a space and are
    each whole are listed too ('N32G430K6L7 N32G430C6Q7'), a code with a space in it is not ('TB 40/120')."""
    parts = [p.strip() for p in LIST_SEPARATORS.split(text) if p.strip()]
    parts = [w for p in parts for w in (p.split() if _spaced_codes(p) else [p])]
    return parts if len(parts) >= 2 and all(code_score(p) >= 0.75 for p in parts) else []


def _spaced_codes(text: str) -> bool:
    """Whole codes standing apart by spaces, none broken at a joiner ('HTPA15S2M040- K-P3' is one
    code wrapped at its hyphen), of like length and starting alike, as codes of one series do: a short
    word before a long one is the series the code prints apart ('H3 Pro-20.0-E'), and a code whose size
    prints apart goes on after the space ('NN-LLED-SHROUD-5D-1.5 INCH-RGB-SD1')."""
    words = text.split()
    return all(code_score(w) >= 0.75 and w[-1] not in JOINERS and w[0] not in JOINERS for w in words) \
        and min(map(len, words)) >= LISTED_LENGTH * max(map(len, words)) and len({w[0] for w in words}) == 1


def model_of(text: str, column: ColumnRole, tails: frozenset[str] = frozenset(),
              priced: bool = False, series: frozenset[str] = frozenset()) -> tuple[list[str], float] | None:
    """The codes a model cell prints and how code-like they are: several listed, the whole cell, the
    code it starts with, or the one code in it; under a header that names the column as the code, any
    short cell with a digit ('12', '0457'), digits in groups ('618 009 227 221', however like a
    phone number it looks), or, in a row with a price, one word in capitals ('RSMW', or in parts:
    'NN-LLED-MODULE-DEVILEYES-SEIN'; a heading in capitals prints none). A designation ('KOSTAL
    PIKO 17') is the whole cell."""
    named = column.named
    if column.designation:
        return [" ".join(text.split())], NAMED_EVIDENCE
    if text.split()[:1] and text.split()[0] not in series and (listed := listed_codes(text)):
        return listed, LIST_EVIDENCE
    if (named_code := _behind_a_name(text)) is not None:
        return [named_code], code_score(named_code)
    if (score := code_score(text)) >= CODE_MIN:
        return [text], score
    if (lead := leading_code(text, tails)) is not None:
        return [lead], LEADING_EVIDENCE
    if named and (number := item_number(text)) is not None:
        return [number], NAMED_EVIDENCE
    if named and any(ch.isdigit() for ch in text) and (len(text) <= NAMED_CODE_MAX or DIGIT_GROUPS.fullmatch(text)):
        return [text], NAMED_EVIDENCE
    if named and priced and LETTER_CODE.fullmatch(text.strip()):
        return [text.strip()], NAMED_EVIDENCE
    found = find_codes(text)
    return ([found[0]], code_score(found[0])) if len(found) == 1 else None


def _behind_a_name(text: str) -> str | None:
    """The one code of a model cell that a family's name stands before ('Amalfi AM15', 'Adirondack -
    AK25VT', 'Café CF14': the name of the group its first row opens); a designation in capitals
    ('SMA STP 10000TL-20') is one code."""
    found = find_codes(text)
    if len(found) != 1 or code_score(found[0]) <= code_score(text):
        return None
    rest = text.replace(found[0], " ").split()
    return found[0] if rest and all(_family_word(w) or w in "-–—:" for w in rest) else None


def _family_word(word: str) -> bool:
    """A name's word ('Amalfi'), not letters of a designation in capitals ('SMA STP 10000TL-20')."""
    return len(word) >= 3 and word.isalpha() and not word.isupper()


def recurring_tags(cells: list[str]) -> frozenset[str]:
    """Words that end many code cells without being codes ('SG 5.0RT -SALE%', 'H3-5.0-Smart -SALE%'):
    a flag printed beside the code, not part of it. A code repeated down the rows is no tag."""
    ends = Counter(cell.split()[-1] for cell in cells if len(cell.split()) >= 2)
    return frozenset(word for word, count in ends.items() if count >= TAG_ROWS and code_score(word) < 0.5
                     and not any(ch.isalnum() for ch in word[:1]))


def series_words(cells: list[str]) -> frozenset[str]:
    """A word that starts many code cells followed by more ('3MGS 160MA2', '3MGS 315SA4'): the series
    the codes of the column print apart, part of each code, never a code listed on its own."""
    starts = Counter(cell.split()[0] for cell in cells if len(cell.split()) >= 2)
    coded = sum(1 for cell in cells if len(cell.split()) >= 2)
    return frozenset(word for word, count in starts.items() if count >= TAG_ROWS and 2 * count >= coded)


def untagged(text: str, tags: frozenset[str]) -> str:
    words = text.split()
    return " ".join(words[:-1]) if len(words) >= 2 and words[-1] in tags else text
