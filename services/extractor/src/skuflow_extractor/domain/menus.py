"""Menus whose dishes are ordered by number: '20. 家常豆腐 … € 14.9', '110. Mit süß-saurer Soße …… 19,90'.

Each dish prints its number, its name and, on the same row, its price; a description may follow on
the lines below. The rows are read one by one, so prices set at different places from block to
block and descriptions running under them (which join every column of a grid) do not matter.
"""

from __future__ import annotations

from dataclasses import dataclass

from skuflow_catalog.codes import item_number, item_numbered
from skuflow_catalog.prices import parse_price, price_of_cell

from skuflow_extractor.domain.drafts import SkuDraft
from skuflow_extractor.domain.words import Line, rows_of

MENU_ROWS = 3  # numbered, priced rows that make a menu
ITEM_EVIDENCE = 0.8  # a dish number is a code by its place, not by its look: a person may confirm it


@dataclass(frozen=True)
class Dish:
    draft: SkuDraft
    lines: frozenset[int]  # the row's lines


def numbered_dishes(lines: list[Line], tolerance: float) -> list[Dish]:
    """One SKU per row that starts with a dish number and ends with its only price, when the page prints
    enough of them and their numbers are the menu's own (``item_numbered``); each with its row's lines."""
    priced = []
    for row in rows_of(lines, tolerance):
        if len(row) >= 2 and (number := item_number(row[0].text)) and price_of_cell(row[-1].text) is not None \
                and not any(parse_price(line.text) or item_number(line.text) for line in row[1:-1]) \
                and not parse_price(row[0].text):  # a price before the last cell: dishes side by side
            priced.append((row, number))
    if len(priced) < MENU_ROWS or not item_numbered([row[0].text for row, _ in priced]):
        return []
    drafts = []
    for row, number in priced:
        name = " ".join([row[0].text.strip()[len(number):].lstrip(".．、 "), *(ln.text for ln in row[1:-1])]).strip()
        draft = SkuDraft(origin="line", boxes=[ln.bbox for ln in row], evidence=ITEM_EVIDENCE)
        draft.set("model", number)
        if name:
            draft.set("product_name", name)
        draft.set_price(row[-1].text)
        drafts.append(Dish(draft, frozenset(line.index for line in row)))
    return drafts

