"""Two-stage extraction of product cards (B/C pages), seed-000 §8.1, without an LLM.

Stage 1 finds SKU boundaries: lines stacked in one column form a stack, and a stack splits into
cards where a new title starts or an attribute label repeats. Stage 2 reads each card's
attributes: labelled values, then a bare model code, a bare price and the title as the name.
Labels this build does not know ('功率：20W') become custom attributes, which a person confirms.
"""

from __future__ import annotations

import re

from skuflow_catalog.codes import code_score, find_codes, is_package, leading_code
from skuflow_catalog.headers import labelled_value
from skuflow_catalog.prices import find_prices, menu_prices, parse_price, price_of_cell
from skuflow_catalog.values import is_size, listed_prices

from skuflow_extractor.domain.drafts import SkuDraft
from skuflow_extractor.domain.words import Line

ALIGN = 6.0  # points: left edges of one stack
CENTRED_WIDTHS = 2.0  # lines of a centred list differ in width by at most this factor
LEADING = 1.25  # a gap above a line larger than this many line heights starts a new stack
OVERLAP = 0.25  # OCR boxes of stacked lines may overlap by this share of a line's height
TITLE_MAX = 40  # characters: longer unlabelled lines are prose, not a product name
MAX_TITLE_LINES = 3  # a product's name wraps onto at most this many lines
FAMILY_STEM = 3  # characters: a shorter base ('A' of 'A1', 'A2') is a letter, not a family's code
NAME_ONLY_EVIDENCE = 0.75  # a card that prints only a name and a price is a product, less surely
CODE_LINE_SHARE = 0.4  # codes must make up this share of a line's characters for single stage to read it
BARE_CODE = 0.75  # a line alone in a card that scores this high is the card's model code
CUSTOM_LABEL = re.compile(r"^\s*([^:：\d][^:：]{0,11})\s*[:：]\s*(\S.{0,40})$")
PRICED_LIST_MIN = 3  # lines of one stack each ending with a price make a price list, one product a line
PRICED_RUN = 2  # ... when they come at least this many in a row
SEPARATORS = " \t-–—:.…·•*|"
# a dash or a number needs a space after it to be a bullet ('-12', '3.5 kg'), or Chinese ('1.香茅檸檬'); a
# symbol needs none ('★山崎')
BULLET = re.compile(r"^\s*(?:[-–—•·*]\s+|[★☆●○■□◆◇♦❖▶►➤✓✔※]\s*|\d{1,3}[.)]\s+|\d{1,3}[.)、](?=[\u3400-\u9fff]))")
CENTS = re.compile(r"[.,]\d{2}$")
BARE_PRICED = re.compile(r"(?P<what>.*?[^\d\s.,:/x×*#-])\s*(?P<amount>[1-9]\d{1,4})")
CJK = re.compile(r"[\u3400-\u9fff]")
SENTENCE = re.compile(r"[。！？]\s*\S|[a-z]{2}[.!?]\s+[A-Z]")  # a sentence ends and another goes on: prose


def stacks(lines: list[Line]) -> list[list[Line]]:
    """Lines left-aligned in one column with line spacing between them; lines that align with no
    stack's left edge may join a stack of centred lines."""
    found: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: (ln.bbox[1], ln.bbox[0])):
        near = [stack for stack in found
                if -OVERLAP * line.height <= line.bbox[1] - stack[-1].bbox[3] <= LEADING * max(line.height, 4)]
        home = next((stack for stack in near if abs(line.bbox[0] - stack[0].bbox[0]) <= ALIGN), None) or next(
            (stack for stack in near if _centred_under(line, stack)), None)
        if home is None:
            found.append([line])
        else:
            home.append(line)
    return found


def _centre(line: Line) -> float:
    return (line.bbox[0] + line.bbox[2]) / 2


def _centred_under(line: Line, stack: list[Line]) -> bool:
    """A priced line centred on the stack's first line and about as wide as its last, under priced
    lines only: a centred price list ('3mg - 10 zł' under '10ml'), not a paragraph under a heading."""
    widths = sorted((line.bbox[2] - line.bbox[0], stack[-1].bbox[2] - stack[-1].bbox[0]))
    return (abs(_centre(line) - _centre(stack[0])) <= ALIGN and widths[1] <= CENTRED_WIDTHS * widths[0]
            and all(not labelled_value(ln.text) and priced_line(ln.text) for ln in [*stack[1:], line]))


def boundaries(stack: list[Line]) -> list[list[Line]]:
    """Stage 1: cut a stack into cards at a new title or at a label seen twice; a stack without
    labels whose cards each end in a line of their price ('13,000yen') is cut after each price."""
    ends = [bool(listed_prices(line.text)) for line in stack]  # lines printing only prices
    if _priced_cards(stack, ends):
        return _after_prices(stack, ends)
    cards: list[list[Line]] = []
    labels: set[str] = set()
    for line in stack:
        found = labelled_value(line.text)
        title = found is None and labels and not CUSTOM_LABEL.match(line.text)
        starts = not cards or title or (found is not None and found[0] in labels)
        if starts:
            cards.append([])
            labels = set()
        cards[-1].append(line)
        if found:
            labels.add(found[0])
    return cards


def _priced_cards(stack: list[Line], ends: list[bool]) -> bool:
    """Cards without labels, each ending in a line of its price (``ends``): many such lines, none
    first, and more lines than prices (a price list prints its prices on the names' lines)."""
    priced = sum(ends)
    return (priced >= PRICED_LIST_MIN and not ends[0] and len(stack) > 2 * priced - 1
            and not any(labelled_value(line.text) for line in stack))


def _after_prices(stack: list[Line], ends: list[bool]) -> list[list[Line]]:
    cards: list[list[Line]] = [[]]
    for line, end in zip(stack, ends, strict=True):
        cards[-1].append(line)
        if end:
            cards.append([])
    return [card for card in cards if card]


def _title(lines: list[Line]) -> list[Line]:
    """The lines a card's name is printed on: its first unlabelled lines, before any price or size,
    each short enough to be a name (a long name wraps: 'AQUA HAIR STYLING MATTE WAX' / 'M10'). A
    name wraps when its line is full: a line wider than the one above is a description."""
    title: list[Line] = []
    for line in lines[:MAX_TITLE_LINES]:
        if labelled_value(line.text) or parse_price(line.text) or is_size(line.text) or len(line.text) > TITLE_MAX:
            break
        if title and _width(line) > _width(title[-1]) + ALIGN:
            break
        title.append(line)
    return title


def _width(line: Line) -> float:
    return line.bbox[2] - line.bbox[0]


def read_card(card: list[Line]) -> SkuDraft | None:
    """Stage 2: a card's attributes; None when it names no product (a paragraph, a heading). A card
    is a product when it prints a labelled value or a code, or a name with a price."""
    draft = SkuDraft(origin="card", boxes=[line.bbox for line in card])
    unlabelled: list[Line] = []
    for line in card:
        found = labelled_value(line.text)
        if found:
            draft.set(*found)
        else:
            unlabelled.append(line)
    title = _title(card)
    named = [line for line in title if line is not card[0] or not _bare_code(line.text)]
    if len(named) > 1:
        draft.set("product_name", " ".join(line.text for line in named))
    coded = False
    for line in unlabelled:
        code = line.text if _bare_code(line.text) else leading_code(line.text)
        if code and SENTENCE.search(line.text[len(code):]):
            code = None  # 'CH32V 系列是基于…微控制器。全系产品…': a sentence about a series, not a product line
        custom = CUSTOM_LABEL.match(line.text)
        if code:
            draft.set("model", code)
            draft.set("product_name", line.text[len(code):].strip(" -–:"))
            draft.evidence = 0.5 + 0.5 * max(code_score(code), 0.5)
            coded = True
        elif parse_price(line.text):
            draft.set("price", line.text)
        elif custom and draft.attributes:
            draft.custom.setdefault(custom.group(1).strip(), custom.group(2).strip())
        elif line is card[0] and len(line.text) <= TITLE_MAX:
            draft.set("product_name", line.text)
    labelled = len(card) - len(unlabelled)
    priced_name = bool(named) and "price" in draft.attributes and not labelled
    if priced_name and not coded:
        draft.evidence = NAME_ONLY_EVIDENCE
    draft.evidence = round(draft.evidence * _read_by_ocr(card), 3)
    return draft if (labelled or coded or priced_name) and draft.has_identity else None


def _bare_code(text: str) -> bool:
    """A line that is a code and nothing else; a package name ('LQFP48') printed under a part
    number is not one."""
    return code_score(text) >= BARE_CODE and not is_package(text)


def _read_by_ocr(lines: list[Line]) -> float:
    """The least OCR confidence of the lines (1 for a text layer)."""
    return min((line.confidence for line in lines if line.confidence is not None), default=1.0)


def priced_line(text: str) -> tuple[str, str] | None:
    """``(what, price)`` for a line that ends with a price after what it prices: '- 125х1.0х22 –
    18,00 руб', 'Harina 000 x 1 kg ..... 40,52'. The price is currency-marked, or prints cents."""
    marked = find_prices(text)
    words = text.split()
    raw = marked[-1].raw if marked else words[-1] if words else ""
    if not marked and not (price_of_cell(raw) and CENTS.search(raw)):
        return None
    at = text.rfind(raw)
    if at < 0 or text[at + len(raw):].strip(" .;"):
        return None
    what = BULLET.sub("", text[:at]).strip(SEPARATORS)
    return (what, raw) if sum(ch.isalnum() for ch in what) >= 2 else None


def _bare_priced(text: str) -> tuple[str, str] | None:
    """``(name, number)`` for a name ending in a bare whole number: '麻婆豆腐120', 'Pizza 35'."""
    found = BARE_PRICED.fullmatch(text.strip())
    if found is None or not (CJK.search(found["what"]) or re.search(r"[^\W\d_]{3}", found["what"])):
        return None
    return BULLET.sub("", found["what"]).strip(SEPARATORS), found["amount"]


def _menu_prices(stack: list[Line]) -> dict[int, tuple[str, str]]:
    """A menu or order sheet prints its prices bare ('麻婆豆腐120', '炒牛肉 150'): a stack of lines
    ending so, in amounts that read as a menu's prices. Its lines by index."""
    found = {line.index: bare for line in stack if (bare := _bare_priced(line.text))}
    return found if menu_prices([amount for _, amount in found.values()]) else {}


def _price_list(stack: list[Line]) -> list[SkuDraft]:
    """One product per priced line where a stack is mostly runs of such lines, two or more in a row
    (headings between runs are skipped; a card's description ending in its price is not a run)."""
    runs: list[list[tuple[Line, tuple[str, str]]]] = [[]]
    menu = _menu_prices(stack)
    for line in stack:
        found = None if labelled_value(line.text) else priced_line(line.text) or menu.get(line.index)
        if found:
            runs[-1].append((line, found))
        elif runs[-1]:
            runs.append([])
    priced = [item for run in runs if len(run) >= PRICED_RUN for item in run]
    coded = sum(1 for line in stack if _bare_code(line.text))
    if len(priced) < PRICED_LIST_MIN or len(priced) < len(stack) / 2 or coded >= PRICED_LIST_MIN:
        return []  # too few priced lines, or cards whose codes sit on lines of their own
    drafts = []
    for line, (what, price) in priced:
        draft = SkuDraft(origin="line", boxes=[line.bbox])
        code = leading_code(what)
        if code:
            draft.set("model", code)
            draft.set("product_name", what[len(code):].strip(SEPARATORS))
        else:
            draft.set("product_name", what)
        draft.set("price", price)
        draft.evidence = round((1.0 if code else NAME_ONLY_EVIDENCE) * _read_by_ocr([line]), 3)
        drafts.append(draft)
    return drafts


def extract_cards(lines: list[Line]) -> list[SkuDraft]:
    drafts = []
    unread: list[list[Line]] = []
    for stack in stacks(lines):
        listed = _price_list(stack)
        if listed:
            drafts.extend(listed)
            continue
        for card in boundaries(stack):
            draft = read_card(card)
            if draft is not None:
                drafts.append(draft)
            else:
                unread.append(card)
    return drafts + _family_bases(unread, [d.attributes.get("model") for d in drafts])


def _family_bases(cards: list[list[Line]], codes: list[str | None]) -> list[SkuDraft]:
    """Captions that start with the base of a family whose members the page codes with a number after it
    ('LCS-CK 颗粒无斗' beside 'LCS-CK1', 'LCS-CK2'): the base is a code too, though it holds no digit.
    A paragraph about the family ('CH32V 系列是…') is no caption."""
    stems = {code.rstrip("0123456789") for code in codes if code and code[-1:].isdigit()}
    drafts = []
    for card in cards:
        first, _, rest = card[0].text.strip().partition(" ")
        if (len(card) == 1 and len(card[0].text) <= TITLE_MAX and len(first) >= FAMILY_STEM and first in stems
                and rest and not CJK.search(first)):
            draft = SkuDraft(origin="card", boxes=[line.bbox for line in card], evidence=NAME_ONLY_EVIDENCE)
            draft.set("model", first)
            draft.set("product_name", rest.strip())
            drafts.append(draft)
    return drafts


def extract_lines(lines: list[Line]) -> list[SkuDraft]:
    """Single stage (the fallback): the code a line starts with, or every code of a line that is
    mostly codes or prints a price, is an SKU, with the price on its line."""
    drafts = []
    for line in lines:
        lead = leading_code(line.text)
        codes = [lead] if lead else find_codes(line.text)
        price = parse_price(line.text)
        coded = sum(len(code) for code in codes) >= CODE_LINE_SHARE * len(line.text.replace(" ", ""))
        if not (lead or coded or price):
            continue  # codes mentioned in a sentence ('supports TIM16 and CRC-32') name no product
        for code in codes:
            draft = SkuDraft(origin="line", boxes=[line.bbox], evidence=_read_by_ocr([line]))
            draft.set("model", code)
            if price:
                draft.set("price", price)
            drafts.append(draft)
    return drafts
