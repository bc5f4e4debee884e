"""Correct one page, the rest follow: the reader adapted, while the job runs, to a page a person corrected.

A catalog repeats its layouts, so a person's correction of one page is a labelled page of the very
layout its other pages share. Each corrected page becomes a *lesson*: the columns where the person's
products' keys stand, in the shapes they take (so that the same columns of the other pages become
candidates, where no generator saw a product: short numbers, words), and its candidates' features with
the person's verdict on each (by the same labels the reader is trained on). The reader is adapted to
the lessons by boosting a few more trees on them from the committed model: the global model stays the
prior, the corrected page weighs heavily, and the adapted scores are read with the calibration and take
the reader learned for corrections and judged by the review bars it learned for them (``AfterCorrection``:
chosen on corrections simulated on held-out pages), and a key it printed again is no doubt about a page of the
layout (``assembly``). A re-read with the adapted reader replaces
a page's reading only where the job's pages share the corrected page's layout (``layouts``), and only
while no person reviewed it. The cells of the taught columns are candidates of their own source
(``taught``): never seen in global training, it is the split the added trees find first, so a lesson
teaches "this column" before "keys this long".
A scanned page's correction also says whether OCR spelled the document's keys right: where it printed
every key the person gave, the adapted reader holds the scan's pages to the text layers' review bar
(the scans' own bar is there for OCR's misspellings, which the correction showed this scan not to make).

Deterministic (one thread, fixed seed) and quick: a lesson is a few hundred candidates.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import lightgbm
import numpy as np

from skuflow_contracts.results import PageClassification
from skuflow_extractor.reading.assembly import (
    NO_PICTURE,
    entries,
    name_rows,
    next_picture,
    own_picture,
    prices_beside,
)
from skuflow_extractor.reading.candidates import (
    Candidate,
    TaughtColumn,
    leading_parts,
    normalize,
    priced_rows,
    printed_texts,
    shape,
    stacked_texts,
    stacks,
)
from skuflow_extractor.reading.decisions import Reader, ReviewBar
from skuflow_extractor.reading.geometry import Geometry
from skuflow_extractor.reading.labels import labels_of, truth_keys
from skuflow_extractor.reading.layouts import fortieth, middle
from skuflow_extractor.reading.pipeline import DecisionInputs

ADAPTATION_ROUNDS = 40  # trees added per adaptation
ADAPTATION_PARAMS = {"objective": "binary", "learning_rate": 0.2, "num_leaves": 7, "min_data_in_leaf": 3,
                     "lambda_l2": 1.0, "deterministic": True, "force_row_wise": True, "num_threads": 1,
                     "seed": 20261129, "verbose": -1}


@dataclass(frozen=True)
class Lesson:
    """What a corrected page teaches: its candidates' features, whether each is one of its products, and
    the columns its products' keys stand in."""

    matrix: np.ndarray
    labels: np.ndarray
    columns: tuple[TaughtColumn, ...] = ()
    page_type: str | None = None  # the type the person left the page with
    ocr_spelled: bool | None = None  # a scan: whether OCR printed every key the person gave (None: a text layer)
    priced_share: float | None = None  # the person's products a row printing a price (None: no row does)

    def to_bytes(self) -> bytes:
        buffer = io.BytesIO()
        columns = json.dumps([[c.kind, c.left, sorted(c.shapes), c.lines, c.centred, c.variants, c.pictured]
                              for c in self.columns])
        spelled = -1 if self.ocr_spelled is None else int(self.ocr_spelled)
        np.savez_compressed(buffer, matrix=self.matrix.astype(np.float32), labels=self.labels.astype(np.int8),
                            columns=np.array(columns), page_type=np.array(self.page_type or ""),
                            ocr_spelled=np.array(spelled, dtype=np.int8),
                            priced_share=np.array(-1.0 if self.priced_share is None else self.priced_share))
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> Lesson:
        with np.load(io.BytesIO(data)) as stored:
            columns = json.loads(str(stored["columns"])) if "columns" in stored else []
            page_type = str(stored["page_type"]) if "page_type" in stored else ""
            spelled = int(stored["ocr_spelled"]) if "ocr_spelled" in stored else -1
            share = float(stored["priced_share"]) if "priced_share" in stored else -1.0
            return cls(stored["matrix"].astype(np.float64), stored["labels"].astype(np.int8),
                       tuple(TaughtColumn(kind, left, frozenset(shapes), *rest)  # lines … pictured: newer
                             for kind, left, shapes, *rest in columns),
                       page_type or None, None if spelled < 0 else bool(spelled), None if share < 0 else share)


def taught_columns(geo: Geometry, products: Iterable[Mapping]) -> tuple[TaughtColumn, ...]:
    """Where the person's products' keys stand on the page they corrected: each column (by its left edge, or by its
    middle where that holds more of the keys: names centred in their column) whose cells print a key, whole or as
    their first words (a code before its grit, '010301010 #150'), after a list's mark or number or not ('22.
    Полотенца …'), on their line or wrapped onto the next (``candidates.continued``), or else stacked over lines of
    their own (``candidates.stacks``: the column then reads as many lines on the layout's other pages), with the
    shapes of the keys it prints. A column printing only keys that a column printing more of them prints too is
    figures, not keys (a quantity column printing 1, 2 and 3 beside item numbers 1–7), and teaches nothing. A name
    column where the person gave a name more products than the page prints it (once over its sizes, each priced on
    a row of its own) reads each name's priced rows as its variants (``TaughtColumn.variants``), down to the next
    picture in its column where that is where the person's products of a name ended (``pictured``)."""
    products = list(products)
    models, names = truth_keys(products)
    named = Counter(normalize(p["product_name"]) for p in products if not p.get("model") and p.get("product_name"))
    blocks = stacks(geo)
    printing: dict[tuple[str, int, bool], set[str]] = defaultdict(set)
    lines: dict[tuple[str, int, bool], int] = defaultdict(lambda: 1)
    times: Counter[str] = Counter()  # how many cells print each name
    named_at: dict[tuple[str, int, bool], list[tuple[int, str]]] = defaultdict(list)  # a name column's (cell, name)
    keyed_rows: set[int] = set()  # rows printing a key: where a name's priced rows end
    for cell in geo.cells:
        printed = {normalize(cell.text)} | {normalize(part) for text in printed_texts(geo, cell.index)
                                             for part in leading_parts(text)}
        stacked = {normalize(text): n for n, text in enumerate(
            stacked_texts(geo, cell.index, blocks.get(cell.index, ())), start=2)}
        times.update((printed | stacked.keys()) & names)
        keyed_rows |= {int(geo.row_of[cell.index])} if printed & (models | names) else set()
        for place in ((fortieth(geo, cell.index), False), (middle(geo, cell.index), True)):
            for kind, keys in (("code", models), ("name", names)):
                if found := printed & keys:
                    printing[(kind, *place)] |= found
                    named_at[(kind, *place)] += [(cell.index, key) for key in found if kind == "name"]
                if over := (stacked.keys() & keys) - printed:
                    printing[(kind, *place)] |= over
                    lines[(kind, *place)] = max(lines[(kind, *place)], *(stacked[key] for key in over))
    covered: set[tuple[str, str]] = set()
    columns = []
    for (kind, left, centred), keys in sorted(printing.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        new = {(kind, key) for key in keys} - covered
        if new:
            covered |= new
            column = TaughtColumn(kind, left, frozenset(shape(key) for key in keys), lines[kind, left, centred],
                                  centred, kind == "name" and any(named[key] > times[key] for key in keys))
            columns.append(replace(column, pictured=column.variants and ended_at_pictures(
                geo, column, [(m, key) for m, key in named_at[kind, left, centred] if named[key] > times[key]],
                named, keyed_rows)))
    return tuple(sorted(columns, key=lambda column: (column.kind, column.left)))


def ended_at_pictures(geo: Geometry, column: TaughtColumn, named_at: list[tuple[int, str]], products: Counter[str],
                      keyed_rows: set[int]) -> bool:
    """Whether the column's names stand over pictures of their own (most of them), and the next picture in their
    column never ends a name's priced rows short of the products the person gave it (``products``: how many of
    each name): then a picture no name stands over is another product's, and a name's variants end there."""
    ends = entries(geo, column) | keyed_rows
    to_entry: Counter[str] = Counter()
    to_picture: Counter[str] = Counter()
    for cell, key in named_at:
        priced = [row for row in name_rows(geo, cell, ends, NO_PICTURE) if prices_beside(geo, row, cell)]
        cut = name_rows(geo, cell, ends, next_picture(geo, cell)).stop  # the picture's end: a prefix of those rows
        to_entry[key] += len(priced)
        to_picture[key] += sum(row < cut for row in priced)
    over = sum(own_picture(geo, cell) is not None for cell, _ in named_at)
    return 2 * over > len(named_at) and all(to_picture[key] >= min(products[key], to_entry[key]) for key in to_entry)


def taught(lessons: Sequence[Lesson]) -> tuple[TaughtColumn, ...]:
    """The columns every lesson taught, once each."""
    return tuple(dict.fromkeys(column for n in lessons for column in n.columns))


def ocr_spelled(geo: Geometry, found: Sequence[Candidate], products: Iterable[Mapping]) -> bool | None:
    """On a scan, whether OCR printed every key of the person's products among the page's candidates
    (None: a text layer, which says nothing about OCR; a page without products proves nothing either)."""
    if not geo.ocr:
        return None
    models, names = truth_keys(products)
    if not models | names:
        return None
    printed = {(c.kind, c.norm) for c in found}
    return all(("code", key) in printed for key in models) and all(("name", key) in printed for key in names)


def lesson(inputs: DecisionInputs, products: Iterable[Mapping], columns: tuple[TaughtColumn, ...] = (),
           page_type: str | None = None) -> Lesson:
    """The page as its person left it: ``products`` are its reviewed SKUs' attributes (model, product_name)
    and ``page_type`` its type; ``inputs`` its decision inputs read with ``columns``, the columns it taught."""
    products = list(products)
    priced = priced_rows(inputs.geo)
    return Lesson(inputs.matrix, labels_of(inputs.found, products, inputs.geo), columns, page_type,
                  ocr_spelled(inputs.geo, inputs.found, products), len(products) / priced if priced else None)


def taught_type(lessons: Sequence[Lesson]) -> str | None:
    """The page type the newest lesson (first) was left with, if any."""
    return next((n.page_type for n in lessons if n.page_type), None)


CLASSIFIER = "classifier"  # where a typed classification keeps the classifier's own verdict (in ``detail``)
VERDICT = ("page_type", "page_type_confidence", "needs_review", "reason")


def typed_as(classification: PageClassification, page_type: str | None) -> PageClassification:
    """A page type the classifier doubted, on a page of a layout a person typed: the person's type, no
    longer in doubt (the classifier's verdict kept in ``detail``). Without ``page_type`` (no lesson, or
    the lesson reverted), the classifier's own verdict again. A type the classifier was sure of stands;
    doubted is a page it sent to review, or a product page whose type (A, B or C) it gave under its bar."""
    own = classification
    if isinstance(verdict := classification.detail.get(CLASSIFIER), dict):
        detail = {k: v for k, v in classification.detail.items() if k != CLASSIFIER}
        own = classification.model_copy(update={**verdict, "detail": detail})
    bar = own.detail.get("thresholds", {}).get("page_type_min_confidence")
    if page_type is None or not (own.needs_review or (bar is not None and own.page_type_confidence < bar)):
        return own
    return own.model_copy(update={
        "page_type": page_type, "needs_review": False, "reason": "the type a person gave a page of its layout",
        "detail": {**own.detail, CLASSIFIER: own.model_dump(mode="json", include=set(VERDICT))}})


def review_bar(reader: Reader, lessons: Sequence[Lesson]) -> ReviewBar:
    """An adapted reading's review bars: those chosen for corrections where the reader has them, else the
    global ones (``scan_bar``)."""
    after = reader.after_correction
    return scan_bar((after and after.review_below) or reader.review_below, spelled_right(lessons))


def spelled_right(lessons: Sequence[Lesson]) -> bool:
    """Whether the lessons include a scan and OCR spelled every scanned lesson's keys right."""
    spelled = [n.ocr_spelled for n in lessons if n.ocr_spelled is not None]
    return bool(spelled) and all(spelled)


def scan_bar(bars: ReviewBar, spelled: bool) -> ReviewBar:
    """The scans' review bar is the text layers' where OCR spelled the lessons' keys right (``spelled_right``):
    the scans' higher bar stands for misspellings this document does not show."""
    return ReviewBar(bars.text_layer, min(bars.ocr, bars.text_layer)) if spelled else bars


def adapted(reader: Reader, lessons: Sequence[Lesson]) -> Reader:
    """The reader with trees added on the lessons, read with its calibration, take and review bars for
    corrections where it has them (``review_bar``), a taken key printed again no doubt about the page
    (``assembly``: the person read the layout's repeats), and the fewest products a priced row its lessons'
    pages show (``taught_share``: a page read short of it goes to a person), or the same reader when there is
    nothing to learn:
    no lesson, a lesson of one kind only, which teaches no boundary, or one kept before the reader learnt
    other features (a lesson's candidates were measured by the features of its day)."""
    usable = [n for n in lessons if len(n.labels) and n.matrix.shape[1] == reader.booster.num_feature()]
    if not usable:
        return reader
    matrix = np.concatenate([n.matrix for n in usable])
    labels = np.concatenate([n.labels for n in usable])
    if labels.min() == labels.max():
        return reader
    data = lightgbm.Dataset(matrix, label=labels, free_raw_data=False, params={"verbose": -1})
    booster = lightgbm.train(ADAPTATION_PARAMS, data, num_boost_round=ADAPTATION_ROUNDS, init_model=reader.booster,
                             keep_training_booster=False)
    digest = hashlib.sha256(reader.version.encode())
    for n in usable:
        digest.update(n.to_bytes())
    after = reader.after_correction
    shares = [n.priced_share for n in usable if n.priced_share is not None]
    return replace(reader, version=f"{reader.version}+{digest.hexdigest()[:8]}", booster=booster,
                   review_below=review_bar(reader, usable), after_correction=None, repeats_doubt=False,
                   taught_share=min(shares, default=None),
                   **({"calibration": after.calibration, "take": after.take} if after else {}))


def read_to_nothing(before: Sequence[int], after: Sequence[int]) -> list[bool]:
    """Which pages a correction would leave read to nothing that the reader read products on (``before``,
    ``after``: the products read on each page). One such page and the correction does not fit the other
    pages: what it taught stands nowhere there (another table of the layout, a page of one product's
    specs). It is not propagated silently, a person looks: its readings are still delivered, each flagged,
    and such a page keeps its reading (held out, a doubted correction's readings are better than the ones
    they replace on the pages it reads: ``skuflow eval --adaptation``). A fall in the pages' confidence is
    no such sign: the adapted reader's confidence is read on a calibration of its own."""
    return [bool(was) and not now for was, now in zip(before, after, strict=True)]
