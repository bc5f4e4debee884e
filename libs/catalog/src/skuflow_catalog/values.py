"""What attribute values look like when no header says what a column holds: sizes, colours and
materials, in the languages catalogs use."""

from __future__ import annotations

import re

from skuflow_catalog.codes import DIMENSIONS, MEASUREMENT, PACKED
from skuflow_catalog.prices import DecimalMark, Price, find_prices, ladder_price, price_of_cell

COLOR_WORDS = (
    "白", "黑", "红", "蓝", "灰", "粉", "绿", "米色", "黄", "紫", "棕", "金色", "银色", "透明",
    "white", "black", "red", "blue", "grey", "gray", "pink", "green", "beige", "yellow", "purple", "brown", "gold",
    "silver", "clear", "navy", "orange",
    "blanco", "negro", "rojo", "azul", "verde", "gris", "branco", "preto", "vermelho", "cinza", "blanc", "noir",
    "rouge", "bleu", "vert", "weiß", "schwarz", "blau", "grün", "grau", "bianco", "nero", "rosso", "белый", "черный",
    "чёрный", "красный", "синий", "зеленый", "серый", "fehér", "fekete", "piros", "kék", "zöld", "szürke",
)
MATERIAL_WORDS = (
    "钢", "玻璃", "陶瓷", "竹", "硅胶", "塑料", "棉", "木", "铝", "铁", "尼龙", "皮革", "tpe", "pu", "abs",
    "steel", "glass", "ceramic", "bamboo", "silicone", "plastic", "cotton", "oak", "wood", "alumin", "iron", "nylon",
    "leather", "polyester",
)
SIZE_WORDS = re.compile(r"^(?:XXS|XS|S|M|L|XL|XXL|XXXL|\d?XL|均码|大号|中号|小号)$", re.IGNORECASE)


def _names(text: str, words: tuple[str, ...]) -> bool:
    lowered = text.lower()
    return len(text) <= 24 and any(word in lowered for word in words)


def is_size(text: str) -> bool:
    """'300ml', '120×80×40 mm', 'Ø12', 'XL', '500mL×15': a size or capacity."""
    t = text.strip()
    return bool(MEASUREMENT.match(t) or DIMENSIONS.match(t) or PACKED.match(t) or SIZE_WORDS.match(t))


def prices_and_rest(text: str) -> tuple[list[Price], str]:
    """The prices a cell prints, left to right, and what it prints besides them."""
    found = find_prices(text)
    rest = text
    for price in found:
        rest = rest.replace(price.raw, " ")
    return found, rest


def listed_prices(text: str) -> list[Price]:
    """The prices a cell lists when it prints nothing else but the sizes they are for ('300元 350元',
    '375ml 13,000yen/750ml 22,000yen', '$10 / $12'), left to right; none for anything else."""
    found, rest = prices_and_rest(text)
    return found if all(is_size(part) for part in re.split(r"[\s/|,]+", rest) if part) else []


def cell_price(text: str, decimal_mark: DecimalMark | None = None) -> Price | None:
    """The price a cell prints: the whole cell's, or the first of those it lists per size ('300元 350元',
    or a menu's bare amounts: '55 65', '4,50 | 7,00 | 13,00')."""
    return price_of_cell(ladder_price(text) or text, decimal_mark) or next(iter(listed_prices(text)), None)


def is_color(text: str) -> bool:
    return len(text) <= 12 and _names(text, COLOR_WORDS)


def is_material(text: str) -> bool:
    return _names(text, MATERIAL_WORDS)
