"""SKU extraction for one page: the seed's method ladder (seed-000 §4.3, §8), without an LLM.

A pages are read by table rules. B/C pages (and D pages classified with low confidence) go
two-stage: tables and product cards are the SKU boundaries, then each is read for attributes.
When two-stage finds nothing, or more than ``two_stage_invalid_threshold`` of what it finds is
invalid, or raises, single stage reads every model code; when that finds nothing too, the page
gets ``final_fallback``: no SKUs, review, and a full-page annotation task downstream.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from skuflow_catalog.codes import code_score, leading_code
from skuflow_catalog.prices import find_prices

from skuflow_contracts.ir import BBox, ParsedPage
from skuflow_contracts.profile import ThresholdProfile
from skuflow_contracts.results import ExtractionMethod, PageClassification, SkuRecord
from skuflow_extractor.domain.captions import named_pictures
from skuflow_extractor.domain.cards import extract_cards, extract_lines
from skuflow_extractor.domain.drafts import SkuDraft
from skuflow_extractor.domain.menus import Dish, numbered_dishes
from skuflow_extractor.domain.tables import Table, TableHeader, find_tables, headerless_rows
from skuflow_extractor.domain.validity import records
from skuflow_extractor.domain.words import Line, Upright, turn, upright_lines

log = logging.getLogger("skuflow.extractor")
CONFIDENCE: dict[ExtractionMethod, float] = {"table_rule": 0.9, "two_stage": 0.85, "single_stage": 0.6,
                                             "final_fallback": 0.0}
MARGIN_ROLES = ("header", "footer")
UNREAD_CODE = 0.75  # a line scoring this as a code prints a code
UNREAD_MIN, UNREAD_SHARE = 3, 0.25  # this many unread codes (or this share of the SKUs) make a page doubtful
TABLE_PAGES = ("A", "B")  # page types whose headerless rows are read as a table


@dataclass(frozen=True)
class Extraction:
    method: ExtractionMethod | None
    skus: list[SkuRecord]
    fallback_reason: str | None = None
    table: TableHeader | None = None  # the header the page's last table was read with (for the next page)
    merged_from: int | None = None  # the page whose table this page continues
    review_reasons: list[str] = field(default_factory=list)  # why this reading is doubtful
    confidence: float | None = None  # the learned reader's confidence in the page's reading
    reader_version: str | None = None  # the learned reader that decided it (None: the rules alone)


def margin_blocks(classification: PageClassification) -> set[int]:
    return {block for block, role in classification.block_roles.items() if role in MARGIN_ROLES}


def needs_previous_page(page: ParsedPage, classification: PageClassification, profile: ThresholdProfile,
                        upright: list[Line]) -> bool:
    """Could this page continue the previous page's table? Then it waits for that page (C1).
    ``upright``: the page's ``upright_lines`` (its running header and footer are left out here)."""
    if page.page <= 1 or classification.page_type not in TABLE_PAGES:
        return False
    margins = margin_blocks(classification)
    return headerless_rows([line for line in upright if line.block not in margins], profile.extraction.row_tolerance)


def _pictures(page: ParsedPage, classification: PageClassification) -> list[BBox]:
    """The page's product pictures."""
    return [img.bbox for img in page.images if classification.image_roles.get(img.image_id) == "PRODUCT_MAIN"]


def _invalid_ratio(drafts: list[SkuDraft]) -> float:
    return sum(1 for d in drafts if not d.has_identity) / len(drafts)


def _menu_rows(tables: list[Table], dishes: list[Dish]) -> tuple[list[Table], list[Dish]]:
    """A menu numbering its dishes is read row by row: a grid over its rows that found no codes
    (names read with headings and numbers run together) gives way, a grid that read the numbers
    as codes keeps its rows."""
    read = {n for dish in dishes for n in dish.lines}
    kept = [table for table in tables if table.keyed_by_code or not table.lines & read]
    taken = {n for table in kept for n in table.lines}
    return kept, [dish for dish in dishes if not dish.lines & taken]


def extract_page(page: ParsedPage, classification: PageClassification, file_hash: str, profile: ThresholdProfile,
                 previous_table: TableHeader | None = None, upright: Upright | None = None) -> Extraction:
    """Extract one page. ``previous_table`` is the header the previous page's last table used;
    ``upright``: the page's ``upright_lines`` when the caller has them already."""
    skipped = classification.page_type == "D" and not classification.needs_review
    if skipped or page.status == "failed":
        return Extraction(None, [])
    # Tables are read from every line: a table may start in the top margin band of a tightly cropped
    # page, and a running header or footer forms no product grid. Cards and lines skip the margins.
    lines, skew = upright or upright_lines(page)
    tables = find_tables(lines, profile.extraction.row_tolerance, previous_table, page.rules)
    tables, dishes = _menu_rows(tables, numbered_dishes(lines, profile.extraction.row_tolerance))
    table_lines = {index for table in tables for index in table.lines} | {n for d in dishes for n in d.lines}
    margins = margin_blocks(classification)
    lines = [line for line in lines if line.block not in margins or line.index in table_lines]
    last_table = max(tables, key=lambda t: t.bottom).header if tables else None
    merged_from = page.page - 1 if any(t.inherited for t in tables) else None

    def finish(method: ExtractionMethod, drafts: list[SkuDraft], reason: str | None) -> Extraction:
        for draft in drafts:
            draft.boxes = [turn(draft.bbox, -skew)] if skew else draft.boxes
        skus = records(drafts, page=page.page, file_hash=file_hash, confidence=CONFIDENCE[method],
                       required_keys=profile.extraction.required_attribute_keys)
        return Extraction(method, skus, reason, last_table, merged_from,
                          doubts(skus, lines, profile.extraction.sku_min_confidence))

    table_skus = [sku for table in tables for sku in table.skus] + [dish.draft for dish in dishes]
    if classification.page_type == "A" and table_skus:
        return finish("table_rule", table_skus, None)
    reason = "table_rule_empty" if classification.page_type == "A" else None
    rest = [line for line in lines if line.index not in table_lines]

    def two_stage() -> list[SkuDraft]:
        return table_skus + (extract_cards(rest) or named_pictures(_pictures(page, classification), rest))

    attempts: list[tuple[ExtractionMethod, Callable[[], list[SkuDraft]]]] = [
        ("two_stage", two_stage), ("single_stage", lambda: extract_lines(lines))]
    for method, attempt in attempts:
        try:
            drafts = attempt()
        except Exception as exc:
            log.exception("%s failed on page %s", method, page.page)
            reason = f"exception:{type(exc).__name__}"
            continue
        if not drafts:
            reason = f"{method}_empty"
        elif method == "two_stage" and _invalid_ratio(drafts) > profile.extraction.two_stage_invalid_threshold:
            reason = f"invalid_ratio={_invalid_ratio(drafts):.2f}"
        else:
            return finish(method, drafts, reason)
    return Extraction("final_fallback", [], "all_extraction_failed", last_table, merged_from,
                      ["nothing_read" + (f":unread_codes={len(unread_codes(lines, []))}" if lines else ":no_text")])


def unread_codes(lines: list[Line], skus: list[SkuRecord]) -> set[str]:
    """Codes printed on the page, alone on a line or starting one, that no SKU was read with."""
    read = {normalize(sku.attributes.model) for sku in skus if sku.attributes.model}
    printed = set()
    for line in lines:
        code = line.text if code_score(line.text) >= UNREAD_CODE else leading_code(line.text)
        key = normalize(code) if code else ""
        if key and not any(key in r for r in read):  # read whole or as part of a longer model
            printed.add(key)
    return printed


def unread_prices(lines: list[Line], skus: list[SkuRecord]) -> int:
    """Lines printing an amount with its currency ('125,00 TL', '$3.50') that stand in no SKU's box: the
    prices of a list, or of one of two lists side by side, that became no SKU."""
    boxes = [sku.source_bbox for sku in skus if sku.validity == "valid"]
    return sum(1 for line in lines if find_prices(line.text) and not any(_inside(line.bbox, box) for box in boxes))


def _inside(line: BBox, box: BBox) -> bool:
    x, y = (line[0] + line[2]) / 2, (line[1] + line[3]) / 2
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def doubts(skus: list[SkuRecord], lines: list[Line], min_confidence: float) -> list[str]:
    """Why a person should look at this reading: SKUs read with little confidence, or codes or prices
    printed on the page that became no SKU (a table half read, a block missed)."""
    reasons = []
    weak = [sku for sku in skus if sku.validity == "valid" and sku.confidence < min_confidence]
    if weak:
        reasons.append(f"low_confidence_skus:{len(weak)}")
    unread = unread_codes(lines, skus)
    if len(unread) >= max(UNREAD_MIN, UNREAD_SHARE * len(skus)):
        reasons.append(f"unread_codes:{len(unread)}")
    if (prices := unread_prices(lines, skus)) >= max(UNREAD_MIN, UNREAD_SHARE * len(skus)):
        reasons.append(f"unread_prices:{prices}")
    if unreadable := [sku for sku in skus if sku.raw_attributes.get("price") and not sku.attributes.price]:
        reasons.append(f"unreadable_prices:{len(unreadable)}")
    return reasons


def normalize(text: str) -> str:
    return "".join(text.split()).upper()
