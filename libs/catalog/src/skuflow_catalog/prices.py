"""Prices as people print them: '16 700 Ft', 'R$ 1.234,56', '9,400', '$4.02 ea.', '¥1,280.00', '12,-'.

A printed amount groups thousands with a space (any of the Unicode spaces), a dot, a comma or an
apostrophe, and marks decimals with a dot or a comma. One amount alone is often ambiguous ('9,400'
is 9400 in a yen list and 9.4 in a euro one), so a column's cells decide its decimal mark together
(``decimal_mark``), and a single amount falls back to what is most common: three digits after the
only separator are thousands, fewer are decimals, and a leading zero is always a decimal ('0.125').
The printed text is kept beside the number (``Price.raw``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from itertools import pairwise
from typing import Literal

from skuflow_catalog.units import UNITS

DecimalMark = Literal[".", ","]
_SPACES = "\u0020\u00a0\u2009\u202f\u2007\u2002\u2003"
_GROUP = rf"[{_SPACES}.,'’]"
INDIAN = r"\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d{1,2})?"  # lakh and crore grouping: '12,34,567.00'
AMOUNT = rf"{INDIAN}|\d{{1,3}}(?:{_GROUP}\d{{3}})+(?:[.,]\d{{1,4}})?|\d+(?:[.,]\d{{1,4}})?"
# A currency written in letters starts no word-internal match ('Pairs 20' is no price in rupees)
# ISO codes of further currencies price lists print in letters (Latin America, Africa, Asia, the rest of Europe),
# in capitals only and none that is also a word ('PEN', 'GEL', 'CAD', 'COP' are left out: 'Shower GEL 250')
_ISO = r"(?-i:ARS|CLP|UYU|PYG|GTQ|DOP|AUD|NZD|SGD|HKD|MYR|ZAR|NGN|EGP|PKR|LKR|ILS|BGN|RSD|BYN)"
_LETTERED = (r"[Kk]r\.|[Kk]r(?=\s)|Rs\.?|RMB|CNY|USD|EUR|GBP|CHF|HUF|PLN|BRL|JPY|KRW|VND|INR|TRY|RUB|UAH|CZK|MXN"
             rf"|Euro|RM|Rp\.?|Tk\.?|IDR|PHP|THB|KSh|Fr\.|NTD|NT(?=\s?\d)|TWD|AED|SAR|QAR|KWD|KZT|UZS|Dhs\.?|{_ISO}")
BEFORE = rf"US\$|HK\$|NT\$|S\$|R\$|A\$|C\$|\$US|\$|¥|￥|€|£|₽|₺|₩|₫|₹|₴|৳|₱|฿|₦|¤|(?<![A-Za-z])(?:{_LETTERED})"
# 'zl' is zł typed without its letter, 'zt' zł as Latin-only OCR reads it, 'Р' (Cyrillic) ₽ as Cyrillic OCR reads it
AFTER = (r"元|人民币|RMB|CNY|USD|EUR|GBP|CHF|€|\$|¤|Ft\.?|HUF|руб\.?|р\.|₽|Р(?![^\W\d_])|грн\.?|zł|zl|zt|PLN|TL|₺|"
         r"TRY|円|원|₩|đ|₫|"
         r"VND|Kč|CZK|lei|лв\.?|kr\.?|SEK|NOK|DKK|BRL|MXN|JPY|KRW|INR|UAH|RUB|Euros?|৳|টাকা|yen|yuan|dollars?|"
         rf"rupees?|pesos?|reais|บาท|IDR|PHP|THB|VNĐ|đồng|TWD|NTD|AED|SAR|QAR|KWD|тг\.?|₸|KZT|сум|UZS|{_ISO}")
PER_UNIT = (r"ea\.?|each|p?/\s*(?:pc|pcs|piece|unit|set|pair|box|kg|m²|m2|m³|m3|m|ea|stk\.?|st\.|stück|шт\.?"
            r"|pz\.?|件|个|只|套|台|支|条|米|箱|包|片|本|双|斤|公斤|千克|個|隻|條|雙|盒|瓶|袋|份|碗|杯|位|客)|(?:за|per)\s+\S+|起|шт\.?|cad\.?|netto")
# '12,-', '12.–', '22:-', '45/-', '3850-.', and a closing dash: '¥1,280-' (but '06-' is a year on)
_SIGN = r"(?:[,.:]\s*[-–—]+|/-|[-–—]\.(?!\d)|(?P<dash>[-–—])(?!\s*\S))?"
WAN = "万"  # ten thousand: '12.5万' is 125000
# thousands, a small k glued to an amount of fewer than four figures: '18k', '105k', '1.5k' (how Vietnamese menus
# print dong); not a word's first letter ('4 kg', '10kW'), nor a capital K, which sizes memory in a datasheet
# ('4K' of flash, '1K' of SRAM: the held-out readings of two microcontroller datasheets took them for prices)
KILO = r"(?<!\d{4})(?<=\d)(?-i:k)(?![^\W\d_])"
TAX = (r"(?:\s*[(（]?\s*(?:税込|税抜|税別|\+\s*税|(?:incl\.?|excl\.?|\+)\s*(?:VAT|GST|IVA|MwSt\.?|TVA)"
       r"|IVA\s+(?:esclusa|inclusa|compresa))\s*[)）]?)?")
GLUE = "/×*"  # '100/22', '2×15': a number glued to these belongs to a size or a code
WIDE_SCRIPTS = 0x2E80  # CJK, kana and Hangul start here: '每斤130元' is a price after a word, not a code
PRICE_TEXT = re.compile(
    rf"(?:(?P<before>{BEFORE})(?:\s*/\s*(?P<unit>[^\W\d_]{{1,10}}\.?))?)?\s*(?P<amount>{AMOUNT}){_SIGN}(?:(?P<wan>{WAN})|(?P<kilo>{KILO}))?"
    rf"(?:\s*[-–~～至]\s*(?:{BEFORE})?\s*(?P<upper>{AMOUNT})(?P<upper_kilo>{KILO})?)?"
    rf"\s*(?:(?P<after>{AFTER})(?![A-Za-z]))?\s*(?:(?P<per>{PER_UNIT}))?{TAX}",
    re.IGNORECASE)
_WORDS_AROUND = re.compile(r"^(?:от|from|ab|desde|a partir de|à partir de|da|od|특가|"
                           r"特价|售价|价格|单价|特價|售價|價格|單價|price|precio|preço|prix|preis|prezzo|цена|ár|cena|fiyat|가격|giá|M\.?R\.?P\.?|@|"
                           r"(?:税込|税抜|税別|本体|販売|希望小売|参考)?価格|税込|税抜|税別|本体|定価|特価|単価)\s*[:：]?\s*",
                           re.IGNORECASE)


_PACK = re.compile(rf"\d+(?:[.,]\d+)?\s*(?:{UNITS})\.?\s+(?=\S)", re.IGNORECASE)
STRAY_STOP = re.compile(r"(?<=[.,]\d\d)\.$")  # '$572.00.': a full stop typed after the cents
OTHERWISE = re.compile(r"\s*[(（]([^()（）]+)[)）]$")  # '1,000円(税込1,080円)': the price again, another way
RULE_TYPED = "|｜"  # a column rule typed as a bar beside an amount: '4,50| 7,00|'


@dataclass(frozen=True)
class Price:
    raw: str
    amount: Decimal
    currency: str | None = None
    per: str | None = None
    upper: Decimal | None = None  # a range's upper end ('12–15')

    @property
    def text(self) -> str:
        """The amount as a plain decimal string ('1234.56'), as SKU attributes carry it."""
        return format(self.amount, "f")


def _separators(amount: str) -> list[tuple[int, str]]:
    return [(i, ch) for i, ch in enumerate(amount) if not ch.isdigit()]


def _mark_of(amount: str) -> DecimalMark | None:
    """The decimal mark one amount shows by itself: the last separator when it occurs once and
    either follows another kind of separator ('1.234,56'), is not followed by exactly three digits
    ('12,50'), follows a zero ('0.125') or follows more than three digits, which no thousands group
    does ('21000.000'); None when the amount shows no decimals or is ambiguous."""
    seps = _separators(amount)
    if not seps:
        return None
    position, last = seps[-1]
    if last not in ".," or sum(1 for _, ch in seps if ch == last) > 1:
        return None
    other_kind = any(ch != last for _, ch in seps)
    tail = len(amount) - position - 1
    if other_kind or tail != 3 or not amount[:position].strip("0") or position > 3:
        return last  # type: ignore[return-value]
    return None


KOPECKS = re.compile(r"\d{2}")


def _kopecks(printed: str, upper: Decimal, amount: Decimal, currency: str | None) -> bool:
    """'1500-00', '1500-50 руб': roubles and kopecks, not a range (no range runs down). Without a
    currency only '-00' says so: '2019-12' is a month."""
    return (bool(KOPECKS.fullmatch(printed)) and upper < amount and amount == amount.to_integral_value()
            and (currency is not None or upper == 0))


CENTS_AFTER_GROUPS = re.compile(r"\d{1,3}(?:[.,]\d{3})+[.,]\d{2}")


def money_shaped(text: str) -> bool:
    """An amount grouped to the thousand and written to the cent ('14,000.00', '1.234,56'): written as
    money is; a table of specifications does not print its values so."""
    return CENTS_AFTER_GROUPS.fullmatch(text.strip()) is not None


def to_decimal(amount: str, decimal_mark: DecimalMark | None = None) -> Decimal | None:
    """The number an amount prints, read with ``decimal_mark`` when the column's is known."""
    seps = _separators(amount)
    mark = decimal_mark or _mark_of(amount)
    whole, fraction = amount, ""
    if seps and mark and seps[-1][1] == mark and sum(1 for _, ch in seps if ch == mark) == 1:
        whole, fraction = amount[:seps[-1][0]], amount[seps[-1][0] + 1:]
    elif len(seps) >= 2 and CENTS_AFTER_GROUPS.fullmatch(amount):
        # '1,750,00', '3.100.00': groups of three, then two digits after the last mark: cents
        whole, fraction = amount[:seps[-1][0]], amount[seps[-1][0] + 1:]
        whole = re.sub(r"\D", "", whole)
    digits = re.sub(r"\D", "", whole)
    if not digits or len({ch for _, ch in _separators(whole)}) > 1:
        return None  # '1.234 567,8': not one way of grouping
    try:
        return Decimal(f"{digits}.{fraction}" if fraction else digits)
    except InvalidOperation:
        return None


def _times(amount: Decimal, factor: int) -> Decimal:
    """The amount in units, as a whole number where it is one ('12.5万' → 125000, '18k' → 18000)."""
    value = amount * factor
    return value.quantize(Decimal(1)) if value == value.to_integral_value() else value


ZERO_LED = re.compile(r"0\d")  # '0121', '0900': an identifier; no amount is printed with a leading zero


def _price(match: re.Match, raw: str, decimal_mark: DecimalMark | None) -> Price | None:
    amount = to_decimal(match.group("amount"), decimal_mark)
    if amount is None or ZERO_LED.match(match.group("amount")):
        return None
    upper = to_decimal(match.group("upper"), decimal_mark) if match.group("upper") else None
    currency = match.group("before") or match.group("after")
    if match.group("dash") and not currency and match.group("amount").isdigit():
        return None  # a closing dash after a bare number opens a range of years or sizes ('06-')
    if upper is not None and _kopecks(match.group("upper"), upper, amount, currency):
        amount, upper = Decimal(f"{amount}.{match.group('upper')}"), None
    # '12.5万'; '18k', and a range whose either end is in thousands: '150k-280k', '20k-25', '15-20k'
    factor = 10000 if match.group("wan") else 1000 if match.group("kilo") or match.group("upper_kilo") else 1
    if factor != 1:
        amount, upper = _times(amount, factor), _times(upper, factor) if upper is not None else None
    per = match.group("per") or match.group("unit")  # '$4.02 ea.', or the unit before: '$/Bulto 25.120,00'
    return Price(raw.strip(), amount, currency.strip() if currency else None, per.strip() if per else None, upper)


@lru_cache(maxsize=65536)  # a page asks for the same cell's price from several stages
def price_of_cell(text: str, decimal_mark: DecimalMark | None = None) -> Price | None:
    """The price a whole cell prints ('¥1,280.00', '16 700 Ft', '$4.02 ea.', '12.50 – 15.00'), the
    first where it prints the price again another way in brackets ('1,000円(税込1,080円)'), or the
    price of the pack size it starts with ('500ml 550yen', '1 kg $3.50'); None when the cell holds
    anything else too (a code, a size alone, a percentage, words)."""
    cleaned = STRAY_STOP.sub("", _WORDS_AROUND.sub("", text.strip().strip(RULE_TYPED).strip()))
    match = PRICE_TEXT.fullmatch(cleaned)
    if not match and (other := OTHERWISE.search(cleaned)):
        again = price_of_cell(other.group(1))
        match = PRICE_TEXT.fullmatch(cleaned[:other.start()]) if again is not None and again.currency else None
    if not match and (pack := _PACK.match(cleaned)):
        match = PRICE_TEXT.fullmatch(cleaned[pack.end():])
        match = match if match and (match.group("before") or match.group("after")) else None
    if not match or "%" in text:
        return None
    return _price(match, text, decimal_mark)


def _glued(previous: str) -> bool:
    return previous in GLUE or (previous.isalnum() and ord(previous) < WIDE_SCRIPTS)


@dataclass(frozen=True)
class PricedSpan:
    """Where a currency-marked amount stands in running text (``start``:``end``), and its price."""

    start: int
    end: int
    price: Price


def price_spans(text: str, decimal_mark: DecimalMark | None = None) -> list[PricedSpan]:
    """Every amount in running text that a currency marks as a price, where it stands: a line that
    prints several products each with its price ('白菜饭10元莲藕饭15元', 'Борщ 150 руб. Щи 120 руб.') is
    parted at them."""
    found = []
    position = 0
    while (match := PRICE_TEXT.search(text, position)) is not None:
        before = text[:match.start("amount")]
        if before and _glued(before[-1]) and not match.group("before"):
            # 'SF-100USD' style glue is a code, not a price; and '125х22 – 18,00 руб' must not read
            # '22 – 18,00' as a range: look again just after the glued number
            position = match.end("amount")
            continue
        position = max(match.end(), position + 1)
        if not (match.group("before") or match.group("after")):
            continue
        price = _price(match, match.group(0), decimal_mark)
        if price is not None:
            found.append(PricedSpan(match.start(), match.end(), price))
    return found


def find_prices(text: str, decimal_mark: DecimalMark | None = None) -> list[Price]:
    """Every amount in running text that a currency marks as a price ('特价 ¥99 起')."""
    return [span.price for span in price_spans(text, decimal_mark)]


# an amount a line ends with, marked by a currency or bare ('★烤鮭魚頭600', 'Борщ 150 руб.', '會議盒餐 $100/盒')
# (a range's lower end with it: 'Lẩu thái 150k-280k')
TRAILING_AMOUNT = re.compile(rf"\s*(?:{BEFORE})?\s*(?:(?:{AMOUNT})(?:{KILO})?\s*[-–~～]\s*(?:{BEFORE})?\s*)?"
                             rf"(?:{AMOUNT})(?:{KILO})?{_SIGN}\s*(?:(?:{AFTER})\.?)?"
                             rf"(?:\s*/\s*\S{{1,3}}|\s*(?:{PER_UNIT}))?$", re.IGNORECASE)


def trailing_amount(text: str) -> int | None:
    """Where the amount a line ends with starts (a name's price printed after it on its line), or None."""
    match = TRAILING_AMOUNT.search(text)
    return match.start() if match else None


def find_price(text: str, decimal_mark: DecimalMark | None = None) -> Price | None:
    prices = find_prices(text, decimal_mark)
    return prices[0] if prices else None


def parse_price(text: str, decimal_mark: DecimalMark | None = None) -> str | None:
    """A price as a plain decimal string: the whole text if it is one, else a currency-marked amount in it."""
    found = price_of_cell(text, decimal_mark) or find_price(text, decimal_mark)
    return found.text if found else None


def decimal_mark(cells: Iterable[str]) -> DecimalMark | None:
    """The decimal mark a column of amounts uses, decided by the cells that show one."""
    votes: Counter[str] = Counter()
    for cell in cells:
        for match in re.finditer(AMOUNT, cell):
            mark = _mark_of(match.group(0))
            if mark:
                votes[mark] += 1
    if not votes:
        return None
    (best, count), *rest = votes.most_common()
    return best if not rest or count > rest[0][1] else None  # type: ignore[return-value]


MENU_MIN = 5  # bare amounts that make a menu's price column or list
MENU_ROUND = 0.8  # ... this share of them round (ending in 0 or 5)
MENU_RISING = 0.6  # ... and no more than this share of them higher than the one before
BARE_AMOUNT = re.compile(r"[1-9]\d{1,4}")
CENTS = re.compile(r"(?:0|[1-9]\d{0,3})[.,]\d{2}")  # '4,50', '12.90': a menu's amount to the cent
_MENU = rf"{BARE_AMOUNT.pattern}|{CENTS.pattern}"
# Prices per size in one cell ('55 65', '4,50 | 7,00 | 13,00'), apart by spaces or bars.
LADDER = re.compile(rf"(?:{_MENU})(?:(?:\s*[|｜]\s*|\s+)(?:{_MENU})){{1,3}}")
# ... or each after its size ('M 30/L 35', '中 40 / 大 50', 'S 80 | M 100 | L 120')
_SIZE_MARK = r"(?:XXL|XL|XS|S|M|L|特大|大杯|中杯|小杯|大|中|小)"
SIZED_LADDER = re.compile(rf"{_SIZE_MARK}\s*(?:{_MENU})(?:\s*[/|｜,]?\s*{_SIZE_MARK}\s*(?:{_MENU})){{1,3}}")


def ladder_price(text: str) -> str | None:
    """The first of a menu's prices per size printed in one cell ('55 65' for M and L, '4,50 | 7,00 |
    13,00' for three sizes, 'M 30/L 35' each after its size): amounts of one kind (whole or to the
    cent), each higher than the one before, that read as no single amount ('120 150' groups a
    thousand and stays 120150)."""
    t = text.strip()
    if SIZED_LADDER.fullmatch(t):
        t = " ".join(re.findall(_MENU, t))
    elif not LADDER.fullmatch(t) or price_of_cell(t) is not None:
        return None
    tokens = re.split(r"[\s|｜]+", t)
    if len({CENTS.fullmatch(token) is None for token in tokens}) > 1:
        return None
    values = [to_decimal(token) for token in tokens]
    return tokens[0] if all(b > a for a, b in pairwise(values)) else None  # type: ignore[operator]


def _menu_amount(cell: str) -> str | None:
    """The amount a cell prints as a menu does: bare, whole or to the cent, or the first of a ladder."""
    amount = cell.strip().strip(RULE_TYPED).strip()
    return amount if BARE_AMOUNT.fullmatch(amount) or CENTS.fullmatch(amount) else ladder_price(amount)


def menu_prices(cells: list[str], round_share: float = MENU_ROUND) -> bool:
    """Do these cells, top to bottom, read as a menu's prices ('120', '150', '150', '180'; '4,50',
    '6,00', '3,50')? Nearly all bare amounts, whole or to the cent, from the first to the last (a size
    letter repeated between sections may sit among them; a title above or a legend below is not the
    column; a cell of prices per size counts its first), many, round (ending in 0 or 5, in
    ``round_share`` of them: a caller with other evidence of a menu may ask for none), and not running
    up line by line as page numbers, sizes or ratings do."""
    amounts = [n for n, c in enumerate(cells) if _menu_amount(c) is not None]
    run = cells[amounts[0]:amounts[-1] + 1] if amounts else cells
    printed = [a for c in run if (a := _menu_amount(c)) is not None]
    if len(printed) < MENU_MIN or len(printed) < MENU_ROUND * len(run):
        return False
    values = [to_decimal(a) for a in printed]
    rising = sum(1 for a, b in pairwise(values) if b > a)  # type: ignore[operator]
    return sum(1 for a in printed if a[-1] in "05") >= round_share * len(printed) and rising <= MENU_RISING * (
        len(printed) - 1)


# A dot leader, run from a menu item's name to its price; not the 'etc.' of a list ('Fanta,...)').
LEADER = re.compile(r"(?<![,，、])[.·．_…⋯](?:\s*[.·．_…⋯])+(?![)）\]])")
LEADER_DOTS = 3  # dots (an ellipsis counts three) that make a leader, not the end of an abbreviation


def leaders(text: str) -> list[tuple[int, int]]:
    """Where ``text`` prints dot leaders ('Mit Erdnusssoße ........ 16,90'): (start, end) of each run
    of at least ``LEADER_DOTS`` dots."""
    return [m.span() for m in LEADER.finditer(text)
            if sum(3 if ch in "…⋯" else 1 for ch in m.group() if not ch.isspace()) >= LEADER_DOTS]


def leadered_prices(texts: list[str]) -> int:
    """How many lines end in a price after a dot leader ('Mit Erdnusssoße ........ 16,90'): amounts
    with decimals or a currency, or whole amounts that read as a menu's (``menu_prices``). A table of
    contents ends its leaders in page numbers, running up line by line: none of them count."""
    tails = [text[runs[-1][1]:].strip() for text in texts if (runs := leaders(text))]
    amounts = [(tail, found) for tail in tails if (found := price_of_cell(tail)) is not None]
    marked = [tail for tail, found in amounts if found.currency or not tail.isdigit()]
    bare = [tail for tail, found in amounts if tail.isdigit()]
    return len(marked) + (len(bare) if menu_prices(bare) else 0)
