"""An SKU while it is being read, before validity and ids."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Literal

from skuflow_catalog.headers import CJK, header_role, is_currency
from skuflow_catalog.prices import DecimalMark, parse_price
from skuflow_catalog.values import cell_price

from skuflow_contracts.ir import BBox, union

TRAILING_MARKS = "#*※"
# '*冰淇淋奶茶': a menu's mark for a new or recommended item, before its name; '·芋頭鮮奶': a list's bullet
LEADING_MARKS = "*＊※·•・"
# a list's dash, or a bullet OCR read as other marks ('- Bò hấp sả', '« Sữa Tươi', '»> Bún Huế'), set apart by a
# space: a name printed in guillemets ('«Mont Blanc»'), brackets or quotes, or after a minus, has none
SPACED_MARK = re.compile(r"[^\w\s(（\[【{\"'“‘]+\s+")
# printed after a code to point at a footnote ('GV52*', 'AZ15*†', 'TB-03-SCN ※1'): not the code
FOOTNOTE_MARKS = re.compile(r"(?:\s*[*†‡§※]\d{0,2})+$")
CIRCLED = re.compile(r"^[\u2460-\u2473\u24f5-\u24fe]\s*(?=\S)")  # '①CB-TB3-C050': a callout's number, not the code

Origin = Literal["table_row", "card", "line"]


@dataclass
class SkuDraft:
    origin: Origin
    attributes: dict[str, str] = field(default_factory=dict)
    custom: dict[str, str] = field(default_factory=dict)
    source: dict[str, str] = field(default_factory=dict)
    boxes: list[BBox] = field(default_factory=list)
    variant_group: str | None = None
    raw: dict[str, str] = field(default_factory=dict)  # attributes as printed ('R$ 1.234,56'), where parsed
    evidence: float = 1.0  # how surely this is one product read right (0..1): code, column role, OCR

    @property
    def bbox(self) -> BBox:
        return union(self.boxes)

    def set(self, attribute: str, value: str, source: str | None = None) -> None:
        """Keep the first value printed for an attribute; prices as plain decimals. A name without a
        letter or digit ('.', '--') names nothing: marks OCR read off a rule or a blank cell."""
        value = value.strip()
        if attribute == "price":
            value = parse_price(value) or ""
        elif attribute == "product_name":
            value = unmarked(value)
            value = value if any(ch.isalnum() for ch in value) and not _field_label(value) else ""
        elif attribute == "model":
            value = CIRCLED.sub("", FOOTNOTE_MARKS.sub("", value)).strip() or value
        if not value or attribute in self.attributes:
            return
        self.attributes[attribute] = value
        if source:
            self.source[attribute] = source

    def set_price(self, text: str, decimal_mark: DecimalMark | None = None, source: str | None = None) -> None:
        """A price read with its column's decimal mark; the printed text is kept in ``raw``. A cell
        listing a price per size ('300元 350元', '55 65') gives the first. A cell printing digits that
        read as no price ('3.400,00 b') is kept in ``raw`` alone: the page's reading is in doubt."""
        found = cell_price(text, decimal_mark)
        if found is not None and "price" not in self.attributes:
            self.set("price", found.text, source)
            self.raw["price"] = found.raw
        elif found is None and "price" not in self.raw and any(ch.isdigit() for ch in text):
            self.raw["price"] = text  # an amount printed in the price column that reads as no price

    def inherit(self, shared: dict[str, str], source: str) -> None:
        for attribute, value in shared.items():
            self.set(attribute, value, source)

    @property
    def has_identity(self) -> bool:
        return bool(self.attributes.get("model") or self.attributes.get("product_name"))


def unmarked(name: str) -> str:
    """A name without the marks printed before it ('★ 山崎シングルモルト' (recommended), '● Tee', '*奶茶', '- Bò') or
    after a Chinese one ('春烏龍#', a tea master's pick; '紅茶*'). A mark that closes a tag it opened
    ('세하도★20KG세일★') is the tag's. A currency ending the name ('Trend IVT Rp.') is the price's,
    printed before its amount on the line below."""
    if len(words := name.split()) > 1 and is_currency(words[-1]):
        name = " ".join(words[:-1])
    while name:
        if (mark := SPACED_MARK.match(name)) is not None:
            name = name[mark.end():]
        elif unicodedata.category(name[0]) == "So" or name[0] in LEADING_MARKS:
            name = name[1:].lstrip()
        else:
            break
    while len(name) >= 2 and (name[-1] in TRAILING_MARKS or unicodedata.category(name[-1]) == "So") \
            and CJK.match(name[-2]) and name[-1] not in name[:-1]:
        name = name[:-1]
    return name


def _field_label(name: str) -> bool:
    """A header word and its colon ('Cena:', '产品名称：') labels the value beside it; it names no product."""
    match = header_role(name[:-1]) if name.endswith((":", "：")) else None
    return match is not None and match.score == 1.0


def custom_label(header: str) -> str:
    """The name a custom attribute is kept under: its header on one line, at most 40 characters."""
    return " ".join(header.split())[:40]
