"""Product codes, and the things that look like codes but are not.

Real codes hold letters and digits in any order and often spaces, slashes, dots, dashes and
units: 'CB-26551-PK', 'TB 40/120', 'KX 60/8 S', 'CSR 150 KG', 'NJ 2324 ECML/C3', '3МП-25',
'ch32v307'. What is *not* a code: section numbers ('II.3', '4.2.1'), dates, phone numbers,
families written with placeholders ('AIR32F103xxxx', 'N32G430x6/x8'), versions ('V2.6'),
measurements ('150 kg', '3.5 mm', '12V'), dimensions ('120×80×40'), nominal sizes ('DN 40',
'G 1/2', 'M12x1.5'), prices, small counters and
electronic packages ('SOP16', 'QSOP24', 'SOT-23'), which sit next to the codes in selection tables.

``code_score`` judges a whole cell (0 = not a code, 1 = surely one); ``find_codes`` scans running
text and is stricter, since prose also holds tokens like 'COVID-19' or 'USB3.0'.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from skuflow_catalog.prices import find_prices, price_of_cell
from skuflow_catalog.units import UNITS

NUMBER = r"(?!0\d)\d{1,5}(?:[.,]\d+)?"  # a measured amount: no leading zero, at most five whole digits
MEASUREMENT = re.compile(rf"^[~≈±<>≤≥Øø⌀]?\s*{NUMBER}(?:\s*[-~/]\s*\d+(?:[.,]\d+)?)?\s*(?:{UNITS})\.?$",
                         re.IGNORECASE)
BY = "x×*Xх"  # the times sign as printed, Cyrillic 'х' included ('1500х900')
DIMENSIONS = re.compile(rf"^[Øø⌀]?\d+(?:[.,]\d+)?(?:\s*[{BY}]\s*\d+(?:[.,]\d+)?)+\s*(?:{UNITS})?$", re.IGNORECASE)
# a pack: so much per unit times the units in it ('500mL×15', '(250mLX16)': bottles of a case)
PACKED = re.compile(rf"^[(（]?{NUMBER}\s*(?:{UNITS})\.?\s*[{BY}]\s*\d{{1,3}}[)）]?$", re.IGNORECASE)
NOMINAL = re.compile(r"^(?:DN|PN|NPS)\s?\d+(?:[.,/]\d+)?$|^(?:G|R|Rp|Rc)\s?\d+/\d+\"?$|^M\d+\s?[x×]\s?\d+(?:[.,]\d+)?$")
FAMILY = re.compile(r"[A-Z0-9]xx|/x[0-9A-Z]?\b")  # a series with placeholders: 'AIR32F103xxxx', 'N32G430x6/x8'
# a document's version ('V2.6', 'Rev 1.18')
VERSION = re.compile(r"^(?:[Vv]|[Vv]er\.?\s?|[Rr]ev\.?\s?)\d{1,2}(?:\.\d{1,3}){1,3}$")
# a standard's number, not a product; bodies whose letters no product series uses ('BS-26335' is a code)
# ('DIN EN ISO 1183-1'; 'DIN 53504/ISO 37': one standard and its equal)
_BODY = r"(?:ISO|IEC|DIN|ASTM|ANSI|JIS|GB/T|JB/T|QB/T|VDA|ГОСТ|GOST|СНиП)(?:\s?(?:ISO|EN|IEC|Р))*\s?\d[\d.:/-]*"
STANDARD = re.compile(rf"^{_BODY}(?:\s?/\s?{_BODY})?$")
# a company's own numbers in a letterhead (bank, tax and register ids), labelled: 'KvK 12024240', 'ИНН 7701…'
COMPANY_ID = re.compile(r"^(?:BIC|SWIFT|IBAN|KvK|BTW|VAT|USt-?IdNr\.?|UID|Steuer-?Nr\.?|HRB|SIRET|SIREN|TVA|NIP|REGON|"
                        r"KRS|CNPJ|CUIT|RUC|RFC|NIF|CIF|ABN|EIN|GSTIN|ИНН|КПП|ОГРН|ОКПО|БИК|ЕГРПОУ|р/с|к/с)"
                        r"[\s:.№#]", re.IGNORECASE)
BULLET = re.compile(r"^[-–•·●▪*]\s")  # a list item's bullet: prose, not a code cell
ORDINAL = re.compile(r"(?:^|\s)\d{1,4}(?:st|nd|rd|th)\.?(?:\s|$)", re.IGNORECASE)  # '23910 N. 19th': an address
CONTACT = re.compile(r"^(?:tel|fax|phone|mob|mobile|whatsapp|電話|传真|電話番号|тел|факс)\.?\s*[:：]?\s*[+(（\d]",
                     re.IGNORECASE)  # a labelled phone or fax number: 'FAX.（0763）62-3841'
HEX = re.compile(r"^0[xX][0-9a-fA-F_]+$")  # an address or register value
SECTION = re.compile(r"^(?:[IVXLC]{1,5}|\d{1,2})(?:[.．]\d{1,2}){1,3}[.．]?$|^(?:[IVXLC]{1,5}|[A-Z])[.．)]$")
DATE = re.compile(r"^(?:\d{4}[-./年]\d{1,2}(?:[-./月]\d{1,2}日?)?|\d{1,2}[-./]\d{1,2}[-./](?:\d{4}|\d{2}))$")
# a month named with its year ('MARZO 2025', 'June 2024', '2024 MAY'): the date a price list is valid from
MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun"
          "|jul|aug|sep|sept|oct|nov|dec|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre"
          "|octubre|noviembre|diciembre|janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|novembro|dezembro"
          "|janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre|januar|februar"
          "|märz|juni|juli|oktober|dezember|gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre"
          "|dicembre|styczeń|luty|marzec|kwiecień|maj|czerwiec|lipiec|sierpień|wrzesień|październik|listopad"
          "|grudzień|január|február|március|április|május|június|július|augusztus|szeptember|október|ocak|şubat"
          "|mart|nisan|mayıs|haziran|temmuz|ağustos|eylül|ekim|kasım|aralık|январь|февраль|март|апрель|май|июнь"
          "|июль|август|сентябрь|октябрь|ноябрь|декабрь")
MONTH_YEAR = re.compile(rf"^(?:(?:{MONTHS})\.?,?\s+(?:19|20)\d{{2}}|(?:19|20)\d{{2}},?\s+(?:{MONTHS})\.?)$",
                        re.IGNORECASE)
PHONE = re.compile(r"^(?:\+\d{1,3}[\s-]?)?(?:\(\d{2,5}\)[\s-]?)?\d{2,4}(?:[\s-]\d{2,4}){2,4}$|^\+\d[\d\s-]{7,}$")
PACKAGE = re.compile(
    r"^(?:[A-Z]{0,2})(?:SOP|SOIC|SSOP|TSSOP|QSOP|MSOP|ESOP|HSOP|SOJ|DIP|PDIP|SDIP|QFN|DFN|TDFN|VQFN|WQFN|UQFN|LQFP|TQFP|"
    r"QFP|PQFP|BGA|FBGA|LGA|WLCSP|CSP|SOT|TSOT|SC|TO|DPAK|D2PAK|SIP|SIL|PLCC|SON|USON|XSON|WSON|LCC|MLF|MELF|SMA|SMB|"
    r"SMC|SOD|LLP|HTSSOP|VSSOP|QSOP|TSOP|SOP-EP|ESSOP)[-_]?\d{1,3}(?:[-_/(]?[A-Z0-9]{1,6}\)?)?$", re.IGNORECASE)
_CODE_CHARS = re.compile(r"^[\w\-_./+#()]+(?:,[\w\-_./+#()]+)*$")  # a comma only between digits or letters
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]")
MAX_TOKENS = 5
ARTICLE_DIGITS = 4  # an all-digit article number has at least this many
TAIL_ROWS = 3  # cells a token must follow the article number in to start the description


def _letters(text: str) -> list[str]:
    return [ch for ch in text if ch.isalpha()]


def is_package(text: str) -> bool:
    """An electronic component package ('SOP16', 'QFN-32', 'SOT-23-5', 'TO-220')."""
    return bool(PACKAGE.match(text.strip()))


def is_measurement(text: str) -> bool:
    """An amount with its unit or a dimension ('0.5 TON', '10 MT.', '120x60 cm'): a value, not a name."""
    t = text.strip()
    return bool(MEASUREMENT.match(t) or DIMENSIONS.match(t))


def not_a_code(text: str) -> bool:
    """Section numbers, dates (a month named with its year too: 'MARZO 2025'), phone numbers (labelled
    too: 'FAX.（0763）62-3841'), hexadecimal numbers, measurements (or alternatives of them,
    '128K/256K'), dimensions, packs ('500mL×15'), prices (or a text printing one with its currency:
    '1.185.600 ARS ó 256.880 ARS'), version numbers, standards, bulleted list items, a company's
    labelled bank and tax numbers, a street address ('23910 N. 19th'), a word broken at the line end
    ('Ether-'), a text whose brackets are empty (a glyph the text layer lost: '(구)HD-S-001' read as
    '()HD-S-001'), and series names with placeholders (a datasheet's family, not an orderable part)."""
    t = text.strip()
    return bool(HEX.match(t) or FAMILY.search(t) or VERSION.match(t) or STANDARD.match(t) or BULLET.match(t)
                or COMPANY_ID.match(t) or CONTACT.match(t) or ORDINAL.search(t) or t.endswith("-") or "()" in t
                or SECTION.match(t) or DATE.match(t) or MONTH_YEAR.match(t) or PHONE.match(t)
                or all(MEASUREMENT.match(part) for part in t.split("/"))
                or DIMENSIONS.match(t) or PACKED.match(t) or NOMINAL.match(t) or (price_of_cell(t) and not t.isdigit())
                or _prints_a_price(t))


def _prints_a_price(text: str) -> bool:
    """An amount with its currency standing apart in the text ('1.185.600 ARS ó …'), not glued into a
    code ('SB 1300TL-10')."""
    return any(price.currency and re.search(rf"(?<!\S){re.escape(price.raw)}(?!\S)", text)
               for price in find_prices(text))


@lru_cache(maxsize=65536)
def code_score(text: str) -> float:
    """How surely a whole cell is a product code (0..1): letters and digits mixed in short tokens,
    mostly upper case; bare numbers of four or more digits are plausible article numbers."""
    t = " ".join(unicodedata.normalize("NFKC", text).split())  # full-width 'ＳＦ－００１' is 'SF-001'
    if not 2 <= len(t) <= 40 or _CJK.search(t) or not_a_code(t):
        return 0.0
    tokens = t.split(" ")
    if len(tokens) > MAX_TOKENS or not all(_CODE_CHARS.match(tok) for tok in tokens):
        return 0.0
    if len(tokens) > 1 and MEASUREMENT.match(tokens[0]):
        return 0.0  # an amount and what it measures ('64K SRAM', '12V DC'), not a code
    digits = sum(ch.isdigit() for ch in t)
    letters = _letters(t)
    if not digits:
        return 0.0
    if not letters:
        bare = re.sub(r"\D", "", t)
        if len(bare) <= 3 or (t.startswith("0") and len(bare) <= 4):
            return 0.0
        return 0.5 if len(tokens) == 1 else 0.35  # '10234', '000123-45': numeric article numbers
    upper = sum(ch.isupper() for ch in letters) / len(letters)
    if len(tokens) > 1:
        worded = [n for n, tok in enumerate(tokens) if _is_word(tok)]
        if not worded and upper >= 0.6:
            return 0.75
        if worded == [0] and sum(ch.isupper() for ch in _letters(" ".join(tokens[1:]))) >= 0.6 * len(
                _letters(" ".join(tokens[1:])) or "x"):
            return 0.6  # a maker's name before the code: 'Kostal PIKO 7.0'
        return 0.0  # 'Pink 12', 'Size 40': a word and a number
    return 0.9 if upper >= 0.5 else 0.6


def _is_word(token: str) -> bool:
    """A token of letters only, too long to be part of a code ('fenékelem', 'Backpack', 'ELECTRIC')."""
    return len(_letters(token)) > 5 and not any(ch.isdigit() for ch in token)


def leading_code(text: str, tails: frozenset[str] = frozenset()) -> str | None:
    """The code a cell starts with, before its description: 'AFE 80/50 L KN fenékelem…' → 'AFE 80/50 L KN',
    '1690158 ABECEDARIO…' → '1690158'. Tokens up to the first word; they must hold a digit. A token of
    ``tails`` after an article number ends the code before it ('413616 AB BASE…' → '413616')."""
    taken: list[str] = []
    for token in text.split():
        if _is_word(token) or _CJK.search(token) or (taken and token[:1].islower() and len(token) > 2):
            break
        if token in tails and len(taken) == 1 and taken[0].isdigit():
            break
        taken.append(token)
        if len(taken) > MAX_TOKENS:
            return None
    if not taken or len(taken) == len(text.split()):
        return None
    code = " ".join(taken).rstrip(",;:-–")
    return code if code_score(code) >= 0.5 else None


ITEM_SHARE = 0.8  # cells of a column that must start with an item number (a heading may have joined the rest)
ITEM_NUMBER = re.compile(r"(\d{1,4}[A-Za-z]?)[.．、](?!\d)(?=\s*\S)")  # '80. ', '80a.', '01.酸辣汤'; not '1.5M'


def item_number(text: str) -> str | None:
    """The number an item is printed with before its name ('80a. Mit Erdnusssoße' → '80a')."""
    found = ITEM_NUMBER.match(text.strip())
    return found.group(1) if found else None


def item_numbered(cells: list[str]) -> bool:
    """Do these cells each start with a number of their own, the numbers a menu's dishes are ordered
    by ('80.', '80a.', '01.')? Nearly all (``ITEM_SHARE``), none twice; plain numbering that starts at
    1 counts a list's lines (and restarts in the next list) and names nothing."""
    numbers = [n for n in map(item_number, cells) if n]
    if len(numbers) < ITEM_SHARE * len(cells) or len(set(numbers)) < len(numbers):
        return False
    padded = any(n[0] == "0" for n in numbers)  # '01.', '02.': numbers of one width, issued as codes are
    return padded or min((int(n) for n in numbers if n.isdigit()), default=0) != 1


def article_tails(cells: list[str]) -> frozenset[str]:
    """Letters printed after the article number in many cells of a column ('413616 AB BASE…',
    '415313 AB SCROC…', '650298 b PRET…'): a brand or range abbreviation that starts the description. An article
    number's own suffix would differ from row to row."""
    counts: dict[str, int] = {}
    for cell in cells:
        tokens = cell.split()
        if len(tokens) >= 3 and tokens[0].isdigit() and len(tokens[0]) >= ARTICLE_DIGITS and tokens[1].isalpha():
            counts[tokens[1]] = counts.get(tokens[1], 0) + 1
    return frozenset(token for token, count in counts.items() if count >= TAIL_ROWS)


def trailing_code(text: str) -> str | None:
    """The code a name ends with: 'Przepustnica międzykołnierzowa 017W' → '017W', 'Kurek kulowy
    F3515' → 'F3515'. One token as strict as ``find_codes``, after at least one word."""
    tokens = text.split()
    if len(tokens) < 2 or find_codes(tokens[-1]) != [tokens[-1]]:
        return None
    return tokens[-1] if any(_is_word(token.strip("(),.")) for token in tokens[:-1]) else None


_TOKEN = re.compile(r"[0-9A-Za-z\u00c0-\u024f\u0400-\u04ff][0-9A-Za-z\u00c0-\u024f\u0400-\u04ff\-_./+#]*")


def find_codes(text: str) -> list[str]:
    """Code-like tokens in running text: one token, letters and at least two digits, mostly upper case
    ('CB-26551-PK', 'SF_1234'), never a measurement, a package or a date."""
    found = []
    for match in _TOKEN.finditer(text):
        token = match.group(0).strip(".-/")
        letters = _letters(token)
        if (len(token) >= 4 and sum(ch.isdigit() for ch in token) >= 2 and letters and not _CJK.search(token)
                and sum(ch.isupper() for ch in letters) >= 0.6 * len(letters) and code_score(token) >= 0.9
                and not is_package(token)):
            found.append(token)
    return found
