"""What each column of a table holds, decided from its cells across rows and from its header.

Header words are good evidence but often missing, printed in a language the vocabulary lacks, or
misleading ('型号' over a column that is really the package). Cells are evidence too: a code column
is code-like and unique down the rows, a price column parses as amounts, a name column holds words.
Each role gets a score per column = data evidence + header evidence, recorded so a reviewer can see
why; a header naming something that is not an attribute (package, quantity, index, barcode) damps
every attribute role of its column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from itertools import pairwise

from skuflow_catalog.codes import (
    article_tails,
    code_score,
    is_measurement,
    is_package,
    item_numbered,
    leading_code,
)
from skuflow_catalog.headers import ATTRIBUTE_ROLES, DESIGNATIONS, HeaderMatch, header_role, is_currency, named_role
from skuflow_catalog.prices import ZERO_LED, decimal_mark, price_of_cell
from skuflow_catalog.values import is_color, is_material, is_size

HEADER_WEIGHT = 0.6
IDENTITY = ("model", "product_name")
IDENTITY_FILL = 0.5  # a code or name column prints in at least half of the rows; a sparser one is a group
PLAIN_NUMBER = 0.45  # price evidence of a whole number without currency, decimals or grouping
LEADING_CODE = 0.7  # code evidence of a cell that starts with a code and goes on with a description
COMPLEMENT_ROWS = 2  # amounts a column must print to price the rows another price column leaves empty
MAIN_PRICE_SHARE = 0.75  # price columns scoring at least this share of the best one are all prices
OTHER_DAMPING = 0.2  # a header naming a non-attribute role leaves this much of the data evidence
MINIMUM = {"model": 0.5, "product_name": 0.45, "price": 0.5, "size": 0.6, "color": 0.6, "material": 0.6}
CONTRADICTING_CELLS = 3  # this many cells that deny what their header names overrule it
WORDS_NOT_CODES = 0.8  # a column this much made of words holds no codes, whatever its header says
KEY_DISTINCTNESS_MARGIN = 0.2  # a code-less table's key is the words column this much more distinct
DESIGNATION_CODES = 0.4  # code evidence of a column of designations, brand words around codes
STRONG_CODES, WEAK_CODES, CODES_MARGIN = 0.85, 0.6, 0.3  # clean codes beat a header over half-codes by this
ARTICLE_ROWS, ARTICLE_SHARE = 3, 0.9  # rows (and share of its cells) of unique numbers in a column of article numbers
ARTICLE_UNIQUE = 0.8  # share of them that differ: a list may print one article twice
CURRENCY_ROWS = 0.8  # share of a column's cells printing a currency that marks it as prices
WHOLE_NUMBER = re.compile(r"\d{1,3}(?:[. ]\d{3})+|\d+")  # '869', '1.134', '12 500'
ORDER_CODES = 0.35  # code evidence of a column of order numbers that outranks a designation column
TIER_ROWS = 3  # rows where a column of amounts sits close to its neighbouring price column's
TIER_SPREAD = Decimal("1.5")  # how far a price tier's amount may stray from its neighbour's
TOTAL_ROWS = 2  # rows of unit price and line total that show a column is the total
CENT = Decimal("0.011")  # a line total may differ from unit price × quantity by its rounding
IDENTITY_BLOCKERS = ("package", "quantity", "unit", "index", "barcode", "weight", "stock", "price", "size", "brand")


@dataclass(frozen=True)
class ColumnRole:
    """One column's decided role, its header text and the scores behind the decision."""

    role: str | None  # an attribute, 'price_extra' for a second price column, 'custom', or None (ignored)
    header: str
    scores: dict[str, float] = field(default_factory=dict)
    decimal_mark: str | None = None
    named: bool = False  # the header (or the article-number rule) vouches for it: model cells may be plain numbers
    designation: bool = False  # a code-less table's key column of designations: each whole cell is the model
    stacked: bool = False  # its header's top line names something else: the cells' top lines print that


def _share(cells: list[str], test) -> float:
    filled = [c for c in cells if c]
    return sum(1 for c in filled if test(c)) / len(filled) if filled else 0.0


def _is_words(text: str) -> bool:
    letters = sum(ch.isalpha() for ch in text)
    return (letters >= 2 and letters >= 0.5 * len(text.replace(" ", "")) and code_score(text) < 0.5
            and not is_measurement(text))


WORD = re.compile(r"[^\W\d_]{3,}")  # a run of three letters: a word, in any script


def _is_name(text: str) -> bool:
    """Words, or a name built of numbers around a word ('4# - spouw - 3(1)3', a glazing build-up)."""
    return _is_words(text) or (WORD.search(text) is not None and code_score(text) < 0.5 and not is_measurement(text)
                               and price_of_cell(text) is None)


def _header_match(header: str) -> HeaderMatch | None:
    """What the header names, read from the whole header or one of its lines, the surest first; of
    lines as sure, the lowest (a header stacks its lines as the cells below stack theirs: 'Position'
    over 'Artikel' heads 'POS 4910' over 'WSZRELA0101', whose code is the column's)."""
    best: HeaderMatch | None = None
    for candidate in (*reversed(header.split("\n")), header):
        match = header_role(candidate.strip()) if candidate.strip() else None
        if match and (best is None or match.score > best.score):
            best = match
    return best


def _header_evidence(header: str) -> tuple[str | None, float]:
    """The role the header names and how surely."""
    match = _header_match(header)
    return (match.role, match.score) if match else (None, 0.0)


def column_scores(header: str, cells: list[str], codes: float) -> tuple[dict[str, float], str | None]:
    """Role → score for one column, and its decimal mark; ``codes`` is its code evidence."""
    filled = [c for c in cells if c]
    if _currency_alone(cells):
        return {role: 0.0 for role in MINIMUM}, None
    fill = len(filled) / len(cells) if cells else 0.0
    mark = decimal_mark(filled)
    named, named_score = _header_evidence(header)
    data = {
        "model": codes,
        # a price column may print for some rows only ('Price/100g' where that pack is sold)
        "price": _price_evidence(cells, mark) * (1.0 if named == "price" else min(1.0, fill * 1.5)),
        "product_name": _share(cells, _is_name) * min(1.0, fill * 1.5),
        "size": _share(cells, is_size),
        "color": _share(cells, is_color),
        "material": _share(cells, is_material),
    }
    if len(filled) >= CONTRADICTING_CELLS and _contradicted(named, data, cells):
        named, named_score = None, 0.0
    if named == "model" and _share(cells, lambda c: bool(WHOLE_NUMBER.fullmatch(c.strip()))) == 1.0:
        data["price"] *= OTHER_DAMPING  # article numbers under 'Código' ('1.134'), grouped like amounts
    scores = {}
    for role, value in data.items():
        blocked = named in IDENTITY_BLOCKERS and named != role and role in ("model", "product_name")
        # a caption in a picture's cell, merged over the rows of its block, names them
        captions = named == "picture" and role == "product_name" and len(set(filled)) < len(filled)
        if blocked or (named and named not in data and not captions):
            value *= OTHER_DAMPING
        value += HEADER_WEIGHT * named_score if named == role else 0.0
        scores[role] = round(value * (min(1.0, fill / IDENTITY_FILL) if role in IDENTITY else 1.0), 3)
    return scores, mark


def _code_evidence(cells: list[str]) -> float:
    """How surely a column holds the codes: code-like cells (or cells led by a code), unique down the
    rows, not package names, printed in most rows."""
    filled = [c for c in cells if c]
    if not filled:
        return 0.0
    leads = [leading_code(c) for c in filled]
    codes = sum(max(code_score(c), LEADING_CODE * bool(lead)) for c, lead in zip(filled, leads, strict=True)) / len(
        filled)
    unique = len({lead or c for c, lead in zip(filled, leads, strict=True)}) / len(filled)
    return codes * unique * (1 - _share(cells, is_package)) * min(1.0, len(filled) / len(cells) * 1.5)


def _codes_over_header(roles: list[str | None], codes: list[float], named: list[str | None],
                       scores: list[dict[str, float]]) -> None:
    """A header word can crown the wrong column: 'Model' over vehicle names ('GLA 250 4MATIC AMG
    Line') beside an unheaded column of clean order codes ('24774712-KR3'). Where the crowned column
    is only half code-like and a free column is all codes, unique down the rows, the codes are the
    model and the crowned column's words its name."""
    if "model" not in roles:
        return
    crowned = roles.index("model")
    rivals = [j for j, role in enumerate(roles) if role is None and named[j] in (None, "model")
              and codes[j] >= STRONG_CODES and codes[j] >= codes[crowned] + CODES_MARGIN]
    if codes[crowned] >= WEAK_CODES or not rivals:
        return
    roles[max(rivals, key=lambda j: codes[j])] = "model"
    named_ok = "product_name" not in roles and scores[crowned]["product_name"] >= MINIMUM["product_name"]
    roles[crowned] = "product_name" if named_ok else None


def _article_numbers(cells: list[str]) -> bool:
    """Unique whole numbers ('1.134', '869', '2'; one in five may repeat) that do not count up row by
    row (an index does), at least one of three digits or more; one cell in ten may hold something else
    (a footer word run into the column: 'Rubro 4030')."""
    filled = [c.strip() for c in cells if c.strip()]
    numbers = [c for c in filled if WHOLE_NUMBER.fullmatch(c)]
    if len(numbers) < ARTICLE_ROWS or len(numbers) < ARTICLE_SHARE * len(filled):
        return False
    values = [int(re.sub(r"\D", "", c)) for c in numbers]
    counting = sum(1 for a, b in pairwise(values) if b == a + 1)
    return len(set(values)) >= ARTICLE_UNIQUE * len(values) and counting * 2 < len(values) and max(values) >= 100


def _numbers_as_codes(roles: list[str | None], headers: list[str], columns: list[list[str]],
                      named: list[str | None]) -> bool:
    """A first column of article numbers before the names, unheaded in a table whose prices print
    their currency ('1.134 | BIZCOCHUELO … | $/Bulto 25.120,00') or whose numbers are zero-padded to
    one width ('0121 | 3034'), as no amount is, or headed 'No' over numbers that do not count up
    ('NO | PRODUCT NAME' over '2031054 | Black Truffle Olive Oil': a number, but not the row's): the
    numbers are the codes, not a price column (their grouping made them look like amounts). The
    prices left keep their order."""
    if "model" in roles or not columns or "product_name" not in roles[1:]:
        return False
    if headers[0].strip():
        if named[0] != "index" or not _article_numbers(columns[0]):
            return False
    elif not (any(_marked(column) >= CURRENCY_ROWS for column in columns[1:]) or _zero_padded(columns[0])) \
            or not _article_numbers(columns[0]):
        return False
    roles[0] = "model"
    for n, j in enumerate(j for j, role in enumerate(roles) if role in ("price", "price_extra")):
        roles[j] = "price" if n == 0 else "price_extra"
    return True


def _zero_padded(cells: list[str]) -> bool:
    """Numbers of one width, some led by zeros ('0121', '3034'): identifiers."""
    numbers = [c.strip() for c in cells if c.strip().isdigit()]
    return len({len(c) for c in numbers}) == 1 and any(ZERO_LED.match(c) for c in numbers)


def _marked(cells: list[str]) -> float:
    """Share of a column's cells that print their amount's currency."""
    return _share(cells, lambda c: bool((p := price_of_cell(c)) and p.currency))


def _marked_beside(columns: list[list[str]], j: int) -> float:
    """Share of column ``j``'s amounts printed as prices: with their currency (in the cell, or alone
    in the cell next to it: '€ | 36,25') or per unit ('38,45 p/m²')."""
    def marked(n: int, cell: str) -> bool:
        beside = [columns[k][n] for k in (j - 1, j + 1) if 0 <= k < len(columns)]
        return bool((p := price_of_cell(cell)) and (p.currency or p.per)) or any(is_currency(c) for c in beside if c)

    filled = [(n, cell) for n, cell in enumerate(columns[j]) if cell]
    return sum(1 for n, cell in filled if marked(n, cell)) / len(filled) if filled else 0.0


def _unmarked_prices(roles: list[str | None], columns: list[list[str]]) -> None:
    """A price list prints its prices one way: where one price column prints the currency with its
    amounts, a column of amounts that never does is a measurement whose header ran into the price's
    ('масса m, Цена с НДС' over '98,0' beside '6 800,00р.'), not a second price."""
    prices = [j for j, role in enumerate(roles) if role == "price"]
    marks = {j: _marked_beside(columns, j) for j in prices}
    if any(share >= CURRENCY_ROWS for share in marks.values()):
        for j in (j for j, share in marks.items() if share == 0):
            roles[j] = None


def _complementary_prices(roles: list[str | None], columns: list[list[str]]) -> None:
    """A menu whose blocks set their prices at different places ('Soße …… 16,90' above 'Gebraten in
    rotem Curry …………… 14,90') prints them in two columns, never both in one row: a free column
    of amounts, however few, that fills only rows the price column leaves empty prices those rows."""
    if "price" not in roles:
        return
    price = roles.index("price")
    for j, role in enumerate(roles):
        filled = [cell for cell in columns[j] if cell.strip()]
        if role is None and len(filled) >= COMPLEMENT_ROWS and all(price_of_cell(cell) for cell in filled) \
                and not any(a.strip() and b.strip() for a, b in zip(columns[price], columns[j], strict=True)):
            roles[j] = "price"


def _price_tiers(roles: list[str | None], columns: list[list[str]], marks: list[str | None]) -> None:
    """Prices by quantity or pack ('20Kg | 5Kg | 1Kg', 'list | net') stand side by side and differ by
    a little: a free column of amounts next to a price column, printing in every row where both print
    an amount within ``TIER_SPREAD`` of its neighbour's, is a price too, however plainly it is set
    ('13500' beside '13,600'). A quantity or a line total strays further."""
    @cache
    def amounts(j: int) -> tuple[Decimal | None, ...]:  # each column is parsed once, whatever the passes
        return tuple(p.amount if (p := price_of_cell(cell, marks[j])) else None for cell in columns[j])

    grown = True
    while grown:
        grown = False
        for j, role in enumerate(roles):
            priced = [k for k in (j - 1, j + 1) if 0 <= k < len(roles) and roles[k] == "price"]
            if role is not None or not priced or any(
                    a is None for cell, a in zip(columns[j], amounts(j), strict=True) if cell.strip()):
                continue
            for k in priced:
                pairs = [(a, b) for a, b in zip(amounts(j), amounts(k), strict=True) if a and b]
                if len(pairs) >= TIER_ROWS and all(a <= b * TIER_SPREAD and b <= a * TIER_SPREAD for a, b in pairs):
                    roles[j], grown = "price", True
                    break


def _line_totals(roles: list[str | None], columns: list[list[str]], marks: list[str | None]) -> None:
    """A quotation prints each position's unit price and its line total, the unit price times the
    quantity ('E-Preis 2349,40 | Preis 4698,80'; '单价 | 总价'). A price column whose amounts are whole
    multiples of those of a price column left of it in every row, more than once in some, is the
    total: not a price. (A carton's price left of its piece price is a price: the list's first; and
    one multiple in every row is a bigger pack's price, 'Price/250g | Price/500g', not a total.)"""
    prices = [j for j, role in enumerate(roles) if role == "price"]
    amounts = {j: [(p.amount if (p := price_of_cell(cell, marks[j])) else None) for cell in columns[j]] for j in prices}
    for total in prices:
        for unit in (j for j in prices if j < total):
            pairs = [(u, t) for u, t in zip(amounts[unit], amounts[total], strict=True) if u and t]
            if len(pairs) < TOTAL_ROWS:
                continue
            times = [round(t / u) for u, t in pairs]
            packs = len(pairs) >= TIER_ROWS and len(set(times)) == 1
            if all(abs(t - u * k) <= CENT and k >= 1 for (u, t), k in zip(pairs, times, strict=True)) \
                    and any(k > 1 for k in times) and not packs:
                roles[total] = None
                break


def _codes_lead_names(roles: list[str | None], columns: list[list[str]], named: list[str | None]) -> None:
    """Code and description set so close that they read as one column ('413616 AB BASE SENZA
    GLUTINE…' under 'Cd_AR Descrizione'): where no column holds codes and the names column's cells
    each start with an article number of their own, that column is the codes (its cells' rest is
    the name). So it is when each starts with an item number of its own ('80a. Mit Erdnusssoße'),
    which then vouches for the column (``named``) as a header would."""
    if "model" in roles or "product_name" not in roles:
        return
    j = roles.index("product_name")
    filled = [c for c in columns[j] if c.strip()]
    tails = article_tails(filled)
    leads = [leading_code(c, tails) for c in filled]
    if len(filled) < ARTICLE_ROWS:
        return
    if all(leads) and len(set(leads)) == len(leads):
        roles[j] = "model"
    elif item_numbered(filled):
        roles[j], named[j] = "model", "model"


def _order_numbers_first(roles: list[str | None], headers: list[HeaderMatch | None], codes: list[float]) -> None:
    """A list printing a designation and an order number ('Type SUN2000-3KTL-M1 | Art-Num 05855',
    '型号 | 订货号') is ordered by the number: where the model column's header names a designation
    and a free column's header names an order number over codes, that column is the model."""
    if "model" not in roles:
        return
    crowned = roles.index("model")
    if (match := headers[crowned]) is None or match.term not in DESIGNATIONS:
        return
    for j, rival in enumerate(headers):
        if roles[j] is None and rival and rival.role == "model" and rival.term not in DESIGNATIONS \
                and codes[j] >= ORDER_CODES:
            roles[j], roles[crowned] = "model", None
            return


def _contradicted(named: str | None, data: dict[str, float], cells: list[str]) -> bool:
    """The cells flatly deny the header: 'PRICE' over a column without one amount (a title spread over
    the table), 'Style' over brewery names (a code column holds codes; plain numbers may pass)."""
    if named == "price":
        return data["price"] == 0
    return named == "model" and data["model"] == 0 and _share(cells, _is_words) >= WORDS_NOT_CODES


def _price_evidence(cells: list[str], mark: str | None) -> float:
    """How surely a column holds prices: amounts with a currency, decimals or thousands grouping are
    strong evidence; plain whole numbers are weak (they are as often counts, sizes or watts)."""
    filled = [c for c in cells if c]
    if not filled:
        return 0.0
    total = 0.0
    for cell in filled:
        found = price_of_cell(cell, mark)
        if found is None or not any(ch.isdigit() for ch in cell):
            continue
        printed = found.currency or found.per or not cell.strip().isdigit()
        total += 1.0 if printed and found.upper is None else PLAIN_NUMBER
    return total / len(filled)


def distinctness(cells: list[str]) -> float:
    filled = [" ".join(c.split()).casefold() for c in cells if c.strip()]
    return len(set(filled)) / len(filled) if filled else 0.0


def _designations(cells: list[str], scores: dict[str, float]) -> bool:
    """Half-coded cells with words around the codes ('Fronius SYMO 10.0-3-M'), not sizes ('15/PN40')."""
    return scores["model"] >= DESIGNATION_CODES and _share(cells, lambda c: WORD.search(c) is not None) >= 0.5


def _most_distinct_name(roles: list[str | None], columns: list[list[str]],
                        scores: list[dict[str, float]]) -> int | None:
    """Without a code column the product name is the table's key, and a key tells rows apart: of
    the free columns of words, a clearly more distinct one is the name ('Avena x 5KG' per row),
    a repeating one (the brand, 'Lucchetti' ×6; the kind, 'String-Wechselrichter' ×15) is not,
    whatever its header says. A distinct column of half-coded designations ('Fronius SYMO 10.0-3-M')
    is the key as the model; its index is returned."""
    if "product_name" not in roles:
        return None
    current = roles.index("product_name")
    rivals = [j for j, role in enumerate(roles) if role is None and (
        scores[j]["product_name"] >= MINIMUM["product_name"] or _designations(columns[j], scores[j]))]
    if not rivals:
        return None
    distinct, best = max((distinctness(columns[j]), -j) for j in rivals)
    if distinct < distinctness(columns[current]) + KEY_DISTINCTNESS_MARGIN:
        return None
    key = "model" if scores[-best]["model"] > scores[-best]["product_name"] else "product_name"
    roles[current], roles[-best] = None, key
    return -best if key == "model" else None


def _currency_alone(cells: list[str]) -> bool:
    """A column of currencies alone ('Rp | 465.000,00', as a spreadsheet's accounting format sets
    them): the currency of the amounts beside it, no column of its own."""
    return _share(cells, is_currency) >= CURRENCY_ROWS


def _currency_apart(headers: list[str], columns: list[list[str]]) -> list[str]:
    """A currency set apart from its amounts ('R$ | 10,80') makes a column of its own, and the header
    over both may split at it ('VALORES | C/100 UN'): the amounts' column is headed by both."""
    joined = list(headers)
    for j in range(len(columns) - 1):
        if headers[j].strip() and _currency_alone(columns[j]):
            joined[j + 1] = f"{headers[j]}\n{headers[j + 1]}".strip()
    return joined


def assign_roles(headers: list[str], columns: list[list[str]]) -> list[ColumnRole]:
    """One role per column, strongest evidence first: each attribute goes to the column that scores
    highest for it among those still free. Prices may take several columns: those scoring close to
    the best are prices, the leftmost is ``price`` and the others ``price_extra``. Other headed
    columns are kept as custom attributes, unheaded ones ignored."""
    headers = _currency_apart(headers, columns)
    codes = [_code_evidence(c) for c in columns]
    scored = [column_scores(h, c, k) for h, c, k in zip(headers, columns, codes, strict=True)]
    roles: list[str | None] = [None] * len(columns)
    best_price = max((scores["price"] for scores, _ in scored), default=0.0)
    candidates = sorted(((scores[role], -j, role) for j, (scores, _) in enumerate(scored) for role in scores
                         if scores[role] >= MINIMUM[role]
                         and (role != "price" or scores[role] >= MAIN_PRICE_SHARE * best_price)), reverse=True)
    for _, negative, role in candidates:
        j = -negative
        if roles[j] is None and (role == "price" or role not in roles):
            roles[j] = role
    _line_totals(roles, columns, [mark for _, mark in scored])
    _complementary_prices(roles, columns)
    _price_tiers(roles, columns, [mark for _, mark in scored])
    _unmarked_prices(roles, columns)
    prices = [j for j, role in enumerate(roles) if role == "price"]
    for j in prices[1:]:
        roles[j] = "price_extra"
    designation = _most_distinct_name(roles, columns, [scores for scores, _ in scored]) \
        if "model" not in roles else None
    matches = [_header_match(header) for header in headers]
    named = [match.role if match else None for match in matches]
    _codes_over_header(roles, codes, named, [scores for scores, _ in scored])
    _codes_lead_names(roles, columns, named)
    _order_numbers_first(roles, matches, codes)
    if _numbers_as_codes(roles, headers, columns, named):
        named[0] = "model"
    for j, header in enumerate(headers):
        if roles[j] is None and header.strip() and named[j] not in ("picture", "index") and any(columns[j]) \
                and not _currency_alone(columns[j]):
            roles[j] = "custom"
    return [ColumnRole(role, header, scores, mark, named=role is not None and named[j] == role.removesuffix("_extra"),
                       designation=j == designation and role == "model", stacked=role == "model" and _stacked(header))
            for j, (role, header, (scores, mark)) in enumerate(zip(roles, headers, scored, strict=True))]


def _stacked(header: str) -> bool:
    """'Position' over 'Artikel': a header of two lines, the top one naming no attribute, the lower the
    code; the cells below stack the same way ('POS 4910' over 'WSZRELA0101')."""
    lines = [line for line in header.split("\n") if line.strip()]
    top = header_role(lines[0]) if len(lines) == 2 else None
    return top is not None and top.role not in ATTRIBUTE_ROLES and named_role(lines[1]) == "model"
