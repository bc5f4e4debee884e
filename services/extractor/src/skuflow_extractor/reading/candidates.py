"""Stage 2, candidates: every reading of the page's products worth deciding on.

Two generators, and neither decides: the rule readers' SKUs (tables, cards, lines, menus; their
vote is carried as features), and the cells themselves: every code-shaped cell, the code a cell
starts with, a code without the maker's word before it, and the name a priced row starts with. While
a job runs, a third: the cells of the columns a person's correction of a page of the same layout
showed holding the products' keys, in the shapes those keys took (a name column: any name in the kinds
of letters its names print), whole, as a cell's first words, after a list's mark, over the line a cell
wraps onto, or over the lines a card stacks its name on (``TaughtColumn``; issue 42). A candidate is one
key (a code, or a name where the page prints none) anchored at a cell, with the price printed after it.
Candidates of one cell and key are merged, their sources kept.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import numpy as np
from skuflow_catalog.codes import code_score, leading_code
from skuflow_catalog.headers import CJK, header_role
from skuflow_catalog.prices import BEFORE, price_spans, trailing_amount
from skuflow_catalog.values import cell_price as _cell_price

from skuflow_contracts.ir import BBox
from skuflow_contracts.results import SkuRecord
from skuflow_extractor.domain.drafts import CIRCLED, FOOTNOTE_MARKS, unmarked
from skuflow_extractor.reading.geometry import Geometry
from skuflow_extractor.reading.layouts import fortieth, middle

Kind = Literal["code", "name"]
LISTED = "listed"  # the source of the codes a cell lists ('AC7815QBGE, AC7815OBGE'): each is a product of its own
BETWEEN_PRICES = "between_prices"  # the source of the names a line prints each with its price ('白菜饭10元莲藕饭15元')
PIECES = frozenset({LISTED, BETWEEN_PRICES})  # sources of a cell's pieces: a product each, not one for the cell
SOURCES = ("engine", "cell", "leading", "unbranded", "number", "name", "text", "before_price", "unbracketed",
           LISTED, "labelled", "numbered", "taught", BETWEEN_PRICES, "spaced_number")
CODE_SHAPED = 0.3  # a cell scoring at least this as a code is a code candidate
NAME_LETTERS, NAME_CHARS, NAME_WORDS = 2, 80, 12  # a name prints letters, and is no paragraph
ITEM_NUMBER = re.compile(r"\d{1,4}[A-Za-z]?[.．、]?")  # '80', '80a', '12.': a dish's number
TRAILING_NOTE = re.compile(r"\s*[(（][^()（）]{1,20}[)）]$")
LIST_SEPARATOR = re.compile(r"\s*[,，;；、]\s*")  # 'AC7815QBGE, AC7815OBGE, AC7815MBGE'
LABEL_END = re.compile(r"[:：]\s*")  # '面向欧洲：UNE318-5928', 'Art.-Nr.: 4711'
NUMBERED = re.compile(r"(\d{1,4}[A-Za-z]?)\s*[.．、)）]\s*(?=\D)")  # '4.韓式泡菜鍋', '42. Dough Mixer'
SPACED_NUMBER = re.compile(r"(\d{1,4})(?:\s*[-–—]\s*|\s+)(?=[^\W\d_])")  # '46 - Spinaci', '05-Lahmacun', '80 Salat'
LIST_MARK = re.compile(r"[-–—•·*]+\s*(?=\S)")  # a list's dash or bullet, glued to its item or not
PRICE_START = re.compile(rf"\s{{2,}}|\s*(?:{BEFORE})(?=\s*\d)")  # where a name's row goes on to its price


LETTER_KINDS = frozenset("AC9")  # the marks ``shape`` gives letters, CJK characters and digits


@dataclass(frozen=True)
class TaughtColumn:
    """A column a person's correction showed holding the products' keys: its left edge (in fortieths of the page's
    width), or the middle its keys are centred on (``centred``: a card's name, a centred list, whose left edges move
    with each name's length), the keys' kind, the shapes they took ('A-9': letters, a dash, digits), the most
    lines a key was set over (1: on its line, or wrapped onto the next; more: a card's name stacked over lines of
    its own), and whether the person gave each of its keys one product a priced row under it (``variants``: a name
    set once over its sizes, each size on a row of its own with its price), down to the next picture in the column
    where the person's products of a name ended there (``pictured``: a name over its picture, its sizes beside it)."""

    kind: Kind
    left: int
    shapes: frozenset[str]
    lines: int = 1
    centred: bool = False  # ``left`` is where the column's cells are centred, not where they start
    variants: bool = False  # a key here is a product for each priced row under it (``assembly.variants``)
    pictured: bool = False  # its variants end where the next picture in the column starts, as the person's did

    def holds(self, geo: Geometry, cell: int) -> bool:
        """Whether the cell stands in this column: within a fortieth of its edge (or middle)."""
        return abs((middle if self.centred else fortieth)(geo, cell) - self.left) <= 1

    def keys_in(self, geo: Geometry, cell: int, under: tuple[int, ...] = ()) -> list[str]:
        """The keys a cell of this column prints as the taught ones (``fits``): on its line, wrapped onto
        the next (``continued``) and, where the lesson's keys were stacked, over up to as many of the lines
        ``under`` it (``stacks``); each the whole text, else the most of its first words that fit ('010301010
        #150' where the lesson's keys were nine digits)."""
        texts = printed_texts(geo, cell) + stacked_texts(geo, cell, under[:self.lines - 1])
        found = (next((part for part in leading_parts(text) if self.fits(part)), None) for text in texts)
        return list(dict.fromkeys(key for key in found if key))

    def fits(self, text: str) -> bool:
        """Whether ``text`` is a key of this column: a code in one of the taught shapes; a name in one of them,
        or any name printing letters of a kind the taught names print (Latin, CJK, digits): a code's shape
        is its pattern, a name's only its words' ('维C银翘片(颗粒)', '小儿热速清颗粒(口服液、糖浆)' under
        '玉屏风颗粒')."""
        shaped = shape(normalize(text))
        if shaped in self.shapes:
            return True
        return self.kind == "name" and worded(text) and bool(letter_kinds(shaped) & self.letter_kinds)

    @property
    def letter_kinds(self) -> frozenset[str]:
        return frozenset().union(*map(letter_kinds, self.shapes))


def letter_kinds(shaped: str) -> frozenset[str]:
    """The kinds of letters a key's shape (``shape``) prints: A Latin and other alphabets, C CJK, 9 digits."""
    return frozenset(shaped) & LETTER_KINDS


def printed_texts(geo: Geometry, cell: int) -> list[str]:
    """A cell's text as a code is printed (``clean_code``), and with the line it wraps onto (``continued``);
    each also without a list's mark or number before it (``unlisted``)."""
    text = geo.cells[cell].text
    wrapped = [f"{text} {geo.cells[under].text}"] if (under := continued(geo, cell)) is not None else []
    printed = [clean_code(t) for t in [text, *wrapped]]
    return list(dict.fromkeys(printed + [t for t in map(unlisted, printed) if t]))


def unlisted(text: str) -> str | None:
    """The text after a list's mark or number ('-AJONJOLÍ BLANCO', '22. Полотенца Сафионе'), if it prints one."""
    mark = LIST_MARK.match(text) or NUMBERED.match(text)
    return text[mark.end():] if mark else None


def stacked_texts(geo: Geometry, cell: int, under: tuple[int, ...]) -> list[str]:
    """The cell's text joined with the first one, two, … of the lines ``under`` it: two lines, three, …"""
    texts = [geo.cells[cell].text] + [geo.cells[n].text for n in under]
    return [clean_code(" ".join(texts[:k])) for k in range(2, len(texts) + 1)]


def leading_parts(text: str) -> list[str]:
    """A cell's text, then its first words, longest first: where a key may stand in a cell."""
    words = text.split()
    return [text] + [" ".join(words[:n]) for n in range(len(words) - 1, 0, -1)] if text else []


WRAPPED_GAP = 0.5  # a wrapped line stands at most this share of a line's height under the one before


def continued(geo: Geometry, cell: int) -> int | None:
    """The cell set under this one in its column, as close as a paragraph's lines, where one of the two
    is alone in its row: the cell's text wrapped (a narrow column's code, its first line set apart or its
    last line hanging under the row), else None."""
    below = int(geo.row_of[cell]) + 1
    if below >= len(geo.rows):
        return None
    under = next((n for n in geo.rows[below] if geo.aligned[cell, n]), None)
    if under is None or (len(geo.rows[below]) > 1 and len(geo.rows[below - 1]) > 1):
        return None
    top, bottom = geo.cells[cell].bbox, geo.cells[under].bbox
    return under if bottom[1] - top[3] <= WRAPPED_GAP * max(top[3] - top[1], bottom[3] - bottom[1]) else None


STACKED_LINES = 4  # a key set over more lines than this is a paragraph
STACKED_SIZE = 1.25  # the lines of one key are set in one type size, give or take this ratio
STACKED_OVERLAP = 0.3  # a line may start this share of a line's height above the last one's foot (tight leading)


def stacks(geo: Geometry) -> dict[int, tuple[int, ...]]:
    """Text set over lines of its own ('TAPON' / 'TERMINACION DE' / 'BARANDAL 1/2"' centred on a card): each
    block's first line and the lines under it (at most ``STACKED_LINES`` in all). A line is the cell under the
    one before in its column, as close as a paragraph's lines and in its type size, neither a price; unlike
    ``continued``, rows of several cells side by side (cards in a row) may stack."""
    under = {n: below for n in range(len(geo.cells)) if (below := _line_under(geo, n)) is not None}
    blocks = {}
    for start in sorted(set(under) - set(under.values())):
        lines = [under[start]]
        while len(lines) < STACKED_LINES - 1 and (below := under.get(lines[-1])) is not None:
            lines.append(below)
        blocks[start] = tuple(lines)
    return blocks


def _line_under(geo: Geometry, cell: int) -> int | None:
    """The nearest cell under this one in its column that is its text's next line (``stacks``), if any; two
    lines may overlap by a little, as tight leading sets them."""
    top = geo.cells[cell]
    if cell_price(top.text) is not None:
        return None
    best = None
    for n in np.flatnonzero(geo.aligned[cell]):
        low = geo.cells[int(n)]
        height = max(top.bbox[3] - top.bbox[1], low.bbox[3] - low.bbox[1], 1e-6)
        gap = low.bbox[1] - top.bbox[3]
        sized = max(low.size, top.size) <= STACKED_SIZE * max(min(low.size, top.size), 1e-6)
        if -STACKED_OVERLAP * height <= gap <= WRAPPED_GAP * height and sized and cell_price(low.text) is None \
                and (best is None or gap < best[0]):
            best = (gap, int(n))
    return best[1] if best else None


@dataclass
class Candidate:
    kind: Kind
    key: str
    cell: int | None  # the cell the key is printed in (None: the rule reader's SKU matched no cell)
    bbox: BBox
    price: str | None = None
    price_raw: str | None = None
    sources: set[str] = field(default_factory=set)
    engine: SkuRecord | None = None  # the rule readers' SKU this is, if any

    @property
    def norm(self) -> str:
        return normalize(self.key)


@lru_cache(maxsize=65536)
def normalize(text: str) -> str:
    """The scoring key: NFKC, upper case, no whitespace (GOLDEN_FORMAT §3)."""
    return "".join(unicodedata.normalize("NFKC", text).upper().split())


def shape(key: str) -> str:
    """A key's pattern: letters A, digits 9, CJK C, runs collapsed ('TB-40/120' → 'A-9/9')."""
    out = []
    for ch in key:
        mark = "C" if CJK.match(ch) else "A" if ch.isalpha() else "9" if ch.isdigit() else ch
        if not out or out[-1] != mark or mark not in "AC9":
            out.append(mark)
    return "".join(out)


@lru_cache(maxsize=65536)
def cell_price(text: str):
    """The price a cell prints (``skuflow_catalog.values.cell_price``), once per text."""
    return _cell_price(text)


def priced_rows(geo: Geometry) -> int:
    """How many rows of the page print a price."""
    return sum(any(cell_price(geo.cells[m].text) is not None for m in row) for row in geo.rows)


def clean_code(text: str) -> str:
    """A code as printed, without a footnote mark after it or a callout number before it."""
    return CIRCLED.sub("", FOOTNOTE_MARKS.sub("", text.strip())).strip() or text.strip()


def candidates(geo: Geometry, engine: list[SkuRecord], taught: tuple[TaughtColumn, ...] = ()) -> list[Candidate]:
    found: dict[tuple, Candidate] = {}

    def add(candidate: Candidate, source: str) -> None:
        key = (candidate.cell, candidate.kind, candidate.norm)
        if not candidate.norm:
            return
        kept = found.setdefault(key, candidate)
        kept.sources.add(source)
        if candidate.engine is not None and kept.engine is None:
            kept.engine, kept.price, kept.price_raw = candidate.engine, candidate.price, candidate.price_raw

    for sku in engine:
        if sku.validity == "valid":
            add(_from_engine(geo, sku), "engine")
    first_named = _first_named(geo)
    taught_keys = _taught_keys(geo, taught)
    for cell in geo.cells:
        for key, source in _codes_in(cell.text, first=int(geo.row_of[cell.index]) in first_named and
                                     geo.rows[int(geo.row_of[cell.index])][0] == cell.index):
            add(_at_cell(geo, cell.index, "code", key), source)
        for key, source in _names_in(cell.text):
            add(_at_cell(geo, cell.index, "name", key), source)
            if first_named.get(int(geo.row_of[cell.index])) == cell.index:
                add(_at_cell(geo, cell.index, "name", key), "name")
        for kind, key in taught_keys.get(cell.index, ()):
            add(_at_cell(geo, cell.index, kind, key), "taught")
    return list(found.values())


def _taught_keys(geo: Geometry, taught: tuple[TaughtColumn, ...]) -> dict[int, list[tuple[Kind, str]]]:
    """The keys the taught columns' cells print on this page, by cell. A column's cells are those printing
    a key of its shapes (``TaughtColumn.keys_in``) within a fortieth of its edge, at the nearest such
    edge, or a fortieth over in a row that has none there (a column of right-aligned figures starts a
    fortieth apart from row to row). A column holds one cell a row, so a cell a fortieth over beside one
    at the edge is the next column's (sizes beside their dimensions, all three-digit numbers), not this
    one's."""
    if not taught:
        return {}
    places = {centred: [(cell.index, (middle if centred else fortieth)(geo, cell.index)) for cell in geo.cells]
              for centred in {column.centred for column in taught}}  # where cells start, or centre, as needed
    blocks = stacks(geo) if any(column.lines > 1 for column in taught) else {}
    found: dict[int, list[tuple[Kind, str]]] = defaultdict(list)
    for column in taught:
        edges = places[column.centred]
        keys = {n: column.keys_in(geo, n, blocks.get(n, ())) for n, edge in edges if abs(edge - column.left) <= 1}
        near = {n: abs(edge - column.left) for n, edge in edges if keys.get(n)}  # cell → fortieths from the edge
        if near:
            nearest = min(near.values())
            rows = {int(geo.row_of[n]) for n, off in near.items() if off == nearest}
            for n, off in near.items():
                if off == nearest or int(geo.row_of[n]) not in rows:
                    found[n] += [(column.kind, key) for key in keys[n]]
    return found


def _codes_in(text: str, first: bool = False) -> list[tuple[str, str]]:
    """The codes a cell may print: the whole cell, the code it starts with, the code after a maker's
    word; and a bare number that starts a row of words and prices (a menu's dish number)."""
    whole = clean_code(text)
    found = [(whole, "cell")] if code_score(whole) >= CODE_SHAPED else []
    if (lead := leading_code(whole)) and lead != whole:
        found.append((lead, "leading"))
    tokens = whole.split()
    if len(tokens) >= 2 and tokens[0].isalpha() and code_score(rest := " ".join(tokens[1:])) >= 0.5:
        found.append((rest, "unbranded"))
    if first and not found and ITEM_NUMBER.fullmatch(whole):
        found.append((whole.rstrip(".．、"), "number"))
    if len(pieces := [p for p in LIST_SEPARATOR.split(whole) if p]) >= 2:
        found += [(piece, LISTED) for piece in pieces if code_score(piece) >= CODE_SHAPED]
    if (label := LABEL_END.search(whole)) and code_score(after := whole[label.end():].strip()) >= 0.5:
        found.append((after, "labelled"))
    if numbered := _item_number(whole):
        found.append((numbered[0].group(1), numbered[1]))
    return found


def _item_number(text: str) -> tuple[re.Match, str] | None:
    """The item number a text starts with and its source: before a dot or a bracket ('4.韓式泡菜鍋',
    ``numbered``), else before a space or a dash ('46 - Spinaci', ``spaced_number``)."""
    for pattern, source in ((NUMBERED, "numbered"), (SPACED_NUMBER, "spaced_number")):
        if found := pattern.match(text):
            return found, source
    return None


def _names_in(text: str) -> list[tuple[str, str]]:
    """The names a cell may print: the cell without the marks before it; without the item number
    before it ('4.韓式泡菜鍋'); and up to the amount or bracketed note after it ('★烤鮭魚頭600',
    '會議盒餐 $100/盒', '法式烤鮭魚便當   $170/盒 招牌+烤鮭魚', '素食炒飯(附素漏)')."""
    name = unmarked(text.strip())
    found = [(name, "text")] if _worded(name) else []
    if (numbered := _item_number(name)) and _worded(rest := name[numbered[0].end():].strip()):
        found.append((rest, numbered[1]))
    price_start, note = PRICE_START.search(name), TRAILING_NOTE.search(name)
    for cut, source in ((price_start and price_start.start(), "before_price"), (trailing_amount(name), "before_price"),
                        (note and note.start(), "unbracketed")):
        if cut is not None and _worded(before := name[:cut].strip()):
            found.append((before, source))
    return found + _between_prices(text.strip())


def _between_prices(name: str) -> list[tuple[str, str]]:
    """The names of a line that prints several products, each with its price ('酸菜鱼块饭15元腊肠炒蛋饭',
    'Latte $4 Mocha $5', 'Борщ 150 руб. Щи 120 руб.'): OCR reads a menu's dense columns as one line where a
    text layer parts them. The line is parted at its currency-marked amounts (``price_spans``)."""
    ends = [0] + [edge for span in price_spans(name) for edge in (span.start, span.end)] + [len(name)]
    pieces = [piece for start, end in zip(ends[::2], ends[1::2], strict=True) if (piece := name[start:end].strip())]
    if len(pieces) < 2:
        return []
    return [(piece, BETWEEN_PRICES) for piece in map(unmarked, pieces) if _worded(piece)]


def _worded(text: str) -> bool:
    """A name's shape: letters, a few words, no code, no header word, no price."""
    letters = sum(ch.isalpha() or bool(CJK.match(ch)) for ch in text)
    return (letters >= NAME_LETTERS and len(text) <= NAME_CHARS and len(text.split()) <= NAME_WORDS
            and code_score(text) < 0.5 and header_word(text) is None and cell_price(text) is None)


def worded(text: str) -> bool:
    return _worded(unmarked(text.strip()))


@lru_cache(maxsize=65536)
def header_word(text: str) -> str | None:
    """The attribute a header word names ('型号', 'Art.-Nr.', 'Prix'), or None."""
    match = header_role(text)
    return match.role if match is not None and match.score >= 0.8 else None


def _first_named(geo: Geometry) -> dict[int, int]:
    """Per row printing a price, its first worded cell before that price: the row's product name."""
    named = {}
    for r, row in enumerate(geo.rows):
        for n, cell in enumerate(row):
            if worded(geo.cells[cell].text):
                if any(cell_price(geo.cells[other].text) is not None for other in row[n + 1:]):
                    named[r] = cell
                break
    return named


def _at_cell(geo: Geometry, cell: int, kind: Kind, key: str) -> Candidate:
    price, raw = row_price(geo, cell, key)
    return Candidate(kind, key, cell, geo.cells[cell].bbox, price, raw)


def row_price(geo: Geometry, cell: int, key: str) -> tuple[str | None, str | None]:
    """The first price printed after the key: the rest of its cell, or the amount that starts it (a line of
    several priced products), else in a cell right of it."""
    text = geo.cells[cell].text
    rest = text[text.find(key) + len(key):].strip() if key in text else ""
    lead = next(iter(price_spans(rest)), None)
    for printed in (rest, rest[:lead.end].strip() if lead and not rest[:lead.start].strip() else ""):
        if printed and (found := cell_price(printed)) is not None:
            return found.text, found.raw
    row = geo.rows[int(geo.row_of[cell])]
    for other in row[row.index(cell) + 1:]:
        if (found := cell_price(geo.cells[other].text)) is not None:
            return found.text, found.raw
    return None, None


def _from_engine(geo: Geometry, sku: SkuRecord) -> Candidate:
    model, name = sku.attributes.model, sku.attributes.product_name
    kind: Kind = "code" if model else "name"
    key = model or name or ""
    return Candidate(kind, key, _anchor(geo, sku.source_bbox, normalize(key)), sku.source_bbox,
                     sku.attributes.price, sku.raw_attributes.get("price"), engine=sku)


def _anchor(geo: Geometry, box: BBox, key: str) -> int | None:
    """The cell inside ``box`` printing ``key``: whole, else as part of it; None when none does."""
    inside = [c for c in geo.cells if box[0] - 1 <= (c.bbox[0] + c.bbox[2]) / 2 <= box[2] + 1
              and box[1] - 1 <= (c.bbox[1] + c.bbox[3]) / 2 <= box[3] + 1]
    texts = [(c.index, normalize(c.text)) for c in inside]
    exact = next((n for n, text in texts if text == key or normalize(clean_code(geo.cells[n].text)) == key), None)
    return exact if exact is not None else next((n for n, text in texts if key and key in text), None)
