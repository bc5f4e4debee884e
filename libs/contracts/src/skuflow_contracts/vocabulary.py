"""Catalog vocabulary: label synonyms (Chinese and English), price and model-code patterns."""

from __future__ import annotations

import re

CURRENCY = r"(?:¥|￥|RMB|CNY|\$|US\$|USD)"
AMOUNT = r"\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d{1,7}(?:\.\d{1,2})?"
PRICE = re.compile(rf"{CURRENCY}\s*({AMOUNT})|({AMOUNT})\s*(?:元|RMB|CNY|USD)")
MODEL_CODE = re.compile(r"\b[A-Z]{1,5}[-_.]?\d{2,6}(?:-[A-Z0-9]{1,4})*\b")

LABELS: dict[str, tuple[str, ...]] = {
    "model": ("型号", "货号", "款号", "编号", "model", "model no", "item no", "item", "sku", "art no", "code"),
    "product_name": ("品名", "名称", "产品名称", "商品名称", "name", "product", "product name", "description"),
    "size": ("规格", "尺寸", "尺码", "size", "dimensions", "spec"),
    "material": ("材质", "材料", "面料", "material"),
    "color": ("颜色", "色彩", "colour", "color"),
    "price": ("价格", "单价", "售价", "零售价", "price", "unit price", "retail price"),
    "picture": ("图片", "图", "photo", "picture", "image"),
}
# Words that name a colour or a material when a table prints no header to say so.
COLOR_WORDS = (
    "白", "黑", "红", "蓝", "灰", "粉", "绿", "米色", "黄", "紫", "棕", "金色", "银色", "透明",
    "white", "black", "red", "blue", "grey", "gray", "pink", "green", "beige", "yellow", "purple", "brown", "gold",
    "silver", "clear", "navy", "orange",
)
MATERIAL_WORDS = (
    "钢", "玻璃", "陶瓷", "竹", "硅胶", "塑料", "棉", "木", "铝", "铁", "尼龙", "皮革", "tpe", "pu", "abs",
    "steel", "glass", "ceramic", "bamboo", "silicone", "plastic", "cotton", "oak", "wood", "alumin", "iron", "nylon",
    "leather", "polyester",
)
_LABEL_TO_ATTRIBUTE = {label: attr for attr, labels in LABELS.items() for label in labels}
_UNIT_HINT = re.compile(r"[(（][^)）]{0,8}[)）]")
LABELLED_VALUE = re.compile(r"^\s*([^:：]{1,30}?)\s*[:：]\s*(.+?)\s*$")


def attribute_for_label(label: str) -> str | None:
    """Map a label or table header to an attribute name: '型号', 'Item No.', 'Unit Price (USD)',
    '单价（元）' and bilingual '型号/Model' all work. 'picture' names a photo column (no attribute)."""
    key = " ".join(_UNIT_HINT.sub("", label).replace(".", " ").lower().split()).strip(":： ")
    if key in _LABEL_TO_ATTRIBUTE:
        return _LABEL_TO_ATTRIBUTE[key]
    parts = [_LABEL_TO_ATTRIBUTE.get(part.strip()) for part in key.split("/")] if "/" in key else []
    return next((attr for attr in parts if attr), None)


def labelled_value(line: str) -> tuple[str, str] | None:
    """'型号：A-100' → ('model', 'A-100'); None when the line is not a labelled attribute."""
    match = LABELLED_VALUE.match(line)
    if not match:
        return None
    attribute = attribute_for_label(match.group(1))
    return (attribute, match.group(2)) if attribute and attribute != "picture" else None


def parse_price(text: str) -> str | None:
    """The first price in ``text`` as a plain decimal string ('¥1,299' → '1299')."""
    match = PRICE.search(text)
    if not match:
        bare = re.fullmatch(r"\s*(\d{1,7}(?:\.\d{1,2})?)\s*", text)
        return bare.group(1) if bare else None
    return (match.group(1) or match.group(2)).replace(",", "")
