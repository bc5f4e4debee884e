"""SKU extraction: table rules for A pages, two-stage for B/C, single-stage fallback.

Ids are assigned after validity (INV-06) in reading order, so the same page always yields the
same sku_ids: ``{file_hash[:8]}_p{page:02d}_{seq:03d}`` ordered by (top, left).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skuflow_contracts.ids import sku_id
from skuflow_contracts.ir import BBox, ParsedPage, TextBlock, TextLine
from skuflow_contracts.results import ExtractionMethod, PageClassification, SkuAttributes, SkuRecord
from skuflow_contracts.vocabulary import MODEL_CODE, attribute_for_label, labelled_value, parse_price

ROW_TOLERANCE = 4.0  # points: cells whose centres differ less than this share a table row
READING_ORDER_BAND = 10.0  # points: SKUs whose tops differ less than this are on one line
CONFIDENCE = {"table_rule": 0.9, "two_stage": 0.85, "single_stage": 0.6}


@dataclass
class SkuDraft:
    attributes: dict[str, str] = field(default_factory=dict)
    boxes: list[BBox] = field(default_factory=list)

    @property
    def bbox(self) -> BBox:
        return (min(b[0] for b in self.boxes), min(b[1] for b in self.boxes),
                max(b[2] for b in self.boxes), max(b[3] for b in self.boxes))


@dataclass(frozen=True)
class Extraction:
    method: ExtractionMethod | None
    skus: list[SkuRecord]


def is_valid(attrs: SkuAttributes) -> bool:
    """INV-06: (model OR product_name) AND (size OR material OR color OR price)."""
    return bool((attrs.model or attrs.product_name)
                and (attrs.size or attrs.material or attrs.color or attrs.price))


def _centre_x(box: BBox) -> float:
    return (box[0] + box[2]) / 2


def _rows(lines: list[TextLine]) -> list[list[TextLine]]:
    rows: list[list[TextLine]] = []
    for line in sorted(lines, key=lambda item: (item.bbox[1] + item.bbox[3]) / 2):
        centre = (line.bbox[1] + line.bbox[3]) / 2
        if rows and abs(centre - (rows[-1][0].bbox[1] + rows[-1][0].bbox[3]) / 2) <= ROW_TOLERANCE:
            rows[-1].append(line)
        else:
            rows.append([line])
    return rows


def _set(draft: SkuDraft, attribute: str, value: str) -> None:
    value = value.strip()
    if attribute == "price":
        value = parse_price(value) or ""
    if value and attribute not in draft.attributes:
        draft.attributes[attribute] = value


def extract_table(page: ParsedPage) -> list[SkuDraft]:
    """A pages: find the header row, map its cells to attributes, one row below it = one SKU."""
    rows = _rows([line for block in page.text_blocks for line in block.lines])
    for index, row in enumerate(rows):
        columns = [(attribute_for_label(cell.text), _centre_x(cell.bbox)) for cell in row]
        columns = [(attr, x) for attr, x in columns if attr]
        if len(columns) < 2:
            continue
        drafts = []
        for body_row in rows[index + 1:]:
            draft = SkuDraft()
            for cell in body_row:
                attribute = min(columns, key=lambda col: abs(col[1] - _centre_x(cell.bbox)))[0]
                _set(draft, attribute, cell.text)
                draft.boxes.append(cell.bbox)
            if draft.attributes.get("model") or draft.attributes.get("product_name"):
                drafts.append(draft)
        return drafts
    return []


def _product_clusters(blocks: list[TextBlock]) -> list[list[TextBlock]]:
    """Stage 1: SKU boundaries. Blocks stacked closely in one column belong to one product."""
    clusters: list[list[TextBlock]] = []
    for block in sorted(blocks, key=lambda b: (b.bbox[0], b.bbox[1])):
        for cluster in clusters:
            last = cluster[-1].bbox
            same_column = abs(block.bbox[0] - last[0]) < 15
            close_below = 0 <= block.bbox[1] - last[3] < max(block.font_size, 6) * 1.2
            if same_column and close_below:
                cluster.append(block)
                break
        else:
            clusters.append([block])
    return clusters


def _draft_from_lines(lines: list[TextLine]) -> SkuDraft:
    """Stage 2: labelled values first; an unlabelled line may still be a name, code or price."""
    draft = SkuDraft(boxes=[line.bbox for line in lines])
    unlabelled = []
    for line in lines:
        found = labelled_value(line.text)
        if found:
            _set(draft, *found)
        else:
            unlabelled.append(line.text)
    for text in unlabelled:
        code = MODEL_CODE.search(text)
        if code and "model" not in draft.attributes and code.group(0) == text.strip():
            _set(draft, "model", code.group(0))
        elif parse_price(text) and "price" not in draft.attributes and not code:
            _set(draft, "price", text)
        elif "product_name" not in draft.attributes:
            _set(draft, "product_name", text)
    return draft


def extract_blocks(page: ParsedPage, classification: PageClassification) -> list[SkuDraft]:
    product_blocks = [b for b in page.text_blocks
                      if classification.block_roles.get(b.block_id) not in ("header", "footer")]
    drafts = []
    for cluster in _product_clusters(product_blocks):
        lines = [line for block in cluster for line in block.lines]
        if any(labelled_value(line.text) for line in lines) or any(MODEL_CODE.search(line.text) for line in lines):
            drafts.append(_draft_from_lines(lines))
    return drafts


def extract_single_stage(page: ParsedPage) -> list[SkuDraft]:
    """Fallback: every model code on the page is an SKU, with the text of its own line."""
    drafts = []
    for block in page.text_blocks:
        for line in block.lines:
            for code in MODEL_CODE.findall(line.text):
                draft = SkuDraft(boxes=[line.bbox])
                _set(draft, "model", code)
                price = parse_price(line.text)
                if price:
                    _set(draft, "price", price)
                drafts.append(draft)
    return drafts


def _records(drafts: list[SkuDraft], page: int, file_hash: str, method: ExtractionMethod) -> list[SkuRecord]:
    ordered = sorted(drafts, key=lambda d: (round(d.bbox[1] / READING_ORDER_BAND), d.bbox[0]))
    records = []
    for seq, draft in enumerate(ordered, start=1):
        attributes = SkuAttributes(**draft.attributes)
        records.append(SkuRecord(
            sku_id=sku_id(file_hash, page, seq), validity="valid" if is_valid(attributes) else "invalid",
            attributes=attributes, source_bbox=draft.bbox, confidence=CONFIDENCE[method],
        ))
    return records


def extract_page(page: ParsedPage, classification: PageClassification, file_hash: str) -> Extraction:
    if classification.page_type == "D":
        return Extraction(None, [])
    attempts: list[tuple[ExtractionMethod, list[SkuDraft]]] = []
    if classification.page_type == "A":
        attempts.append(("table_rule", extract_table(page)))
    attempts.append(("two_stage", extract_blocks(page, classification)))
    attempts.append(("single_stage", extract_single_stage(page)))
    for method, drafts in attempts:
        if drafts:
            return Extraction(method, _records(drafts, page.page, file_hash, method))
    return Extraction("final_fallback", [])
