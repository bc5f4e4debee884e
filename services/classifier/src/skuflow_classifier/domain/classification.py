"""Page type (A table / B mixed / C image+text blocks / D no products), layout (L1-L4) and roles.

Deterministic rules over the IR's geometry and text: no LLM needed. Every decision records its
features, the rule that fired and the thresholds used in ``detail`` (NFR-13), so a reviewer can
see why a page went where it did. Thresholds come from the job's frozen profile.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from itertools import pairwise

from skuflow_catalog.captions import THUMBNAIL, captioned
from skuflow_catalog.codes import code_score, find_codes
from skuflow_catalog.headers import attribute_for_label, is_price_list_title, labelled_value
from skuflow_catalog.prices import find_price, find_prices, ladder_price, leadered_prices, price_of_cell

from skuflow_contracts.ir import BBox, ImageRegion, ParsedPage
from skuflow_contracts.profile import ClassificationThresholds, ThresholdProfile
from skuflow_contracts.results import ImageRole, Layout, PageClassification, PageType

CODE_CELL = 0.75  # a line scoring this as a code is a code cell
SIGNAL_MIN = 3  # this many codes or prices on a page make it a product page
MARGIN_BLOCKS = 6  # more blocks than this in a margin band are content, not a running header or footer
SHORT_TEXTS = 10  # a scan with this many short texts (not a cover's few lines) may name products without codes
POOR_OCR = 0.8  # a scan read with less mean confidence than this may hide products
NAME_WIDTH = 10  # a cell this wide (a CJK character counts 2) names something
PROSE_WIDTH = 40  # an unlabelled line this wide (a CJK character counts 2) is prose, not a product field
PAGE_PICTURE_SHARE = 0.6  # a picture covering this much of the page is the page (a scan, a backdrop)
ANCHOR_REACH = 1.5  # a picture is a product's when product text lies within this many of its sides
SPACED_COLUMNS = re.compile(r"\S {3,}\S")  # 'BELIANA        fruit petit': a column set with spaces
SPACED_ROWS = 8  # lines set so that make a page a list, not a paragraph with a wide gap
PICTURED_PRODUCTS = 4  # product pictures with text that may show products named only (a catalogue's blocks)
DENSE_ROW_PITCH = 1.9  # font sizes between table rows below which a table is dense (L4)
DETAIL_SHARE = 0.6  # a picture this much smaller than a neighbouring product picture is its detail
DETAIL_REACH = 3.0  # picture heights: how far along its row a detail picture may sit from the main one


@dataclass(frozen=True)
class PageFeatures:
    model_mentions: int
    price_mentions: int
    header_rows: int
    table_rows: int
    prose_lines: int
    labelled_lines: int
    product_images: int
    thumbnails: int
    text_blocks: int
    image_columns: int
    grid_aligned: bool
    text_columns: int
    row_pitch: float  # median distance between table rows, in font sizes (tight rows = a dense table)
    code_cells: int = 0  # lines that are a product code and nothing else
    price_cells: int = 0  # lines that are a price and nothing else (with decimals, grouping or a currency)
    scanned: bool = False  # OCR'd, or a picture fills the page
    ocr_confidence: float | None = None
    price_list_title: bool = False  # 'PRICE LIST', '价目表', 'Lista de precios'
    amount_cells: int = 0  # lines that are an amount and nothing else, plain whole numbers included
    captioned_pictures: int = 0  # like-sized product pictures, each with a short line right below it
    leadered_prices: int = 0  # lines ending in an amount after a dot leader ('Tofu ...... 16,90')
    amount_rows: int = 0  # rows of three cells or more, one of them a name, ending in an amount
    spaced_rows: int = 0  # lines whose words the text layer sets into columns with runs of spaces

    @property
    def product_signal(self) -> bool:
        """Repeated codes, prices (a menu's after dot leaders) or a table header; or a price-list
        title over amounts (a cover saying 'Dealer Price List' has none); or a grid of captioned
        pictures: this page lists products."""
        return (max(self.model_mentions, self.code_cells) >= SIGNAL_MIN or self.header_rows > 0
                or self.price_mentions + self.price_cells >= SIGNAL_MIN or self.leadered_prices >= SIGNAL_MIN
                or (self.price_list_title and self.amount_cells >= SIGNAL_MIN)
                or self.captioned_pictures >= SIGNAL_MIN)


def _area(box: BBox) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _gap(a: BBox, b: BBox) -> float:
    return max(0.0, b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])


def _same_row(picture: BBox, line: BBox) -> bool:
    """Is the line in the picture's table row (most of its height within the picture's)?"""
    overlap = min(picture[3], line[3]) - max(picture[1], line[1])
    return overlap >= 0.5 * (line[3] - line[1]) and line[0] >= picture[2]


def _product_text(page: ParsedPage) -> list[BBox]:
    return [line.bbox for block in page.text_blocks for line in block.lines
            if find_codes(line.text) or find_price(line.text) or labelled_value(line.text)]


def image_role(image: ImageRegion, page: ParsedPage, t: ClassificationThresholds,
               anchors: list[BBox] | None = None) -> ImageRole:
    """A picture filling the page is its scan or backdrop; margins hold logos; a picture with product
    text close by, or right of it in its table row, is a product's; the rest decorate."""
    share = _area(image.bbox) / (page.width * page.height)
    if share >= PAGE_PICTURE_SHARE:
        return "SCENE"
    margin = page.height * t.margin_share
    in_margin = image.bbox[3] < margin or image.bbox[1] > page.height - margin
    if in_margin and share < 0.03:
        return "LOGO"
    side = max(image.bbox[2] - image.bbox[0], image.bbox[3] - image.bbox[1])
    anchored = any(_gap(image.bbox, box) <= side * ANCHOR_REACH or _same_row(image.bbox, box)
                   for box in (anchors or []))
    if share < t.decoration_area_share and not anchored:
        return "DECORATION"
    return "PRODUCT_MAIN"


def _details(page: ParsedPage, roles: dict[str, ImageRole]) -> None:
    """A small picture in the same row as a larger product picture (within its height, a few of its
    heights away) shows a detail of that product."""
    products = [img for img in page.images if roles[img.image_id] == "PRODUCT_MAIN"]
    for img in products:
        for other in products:
            near = _gap(img.bbox, other.bbox) < (other.bbox[3] - other.bbox[1]) * DETAIL_REACH
            if other is not img and near and _area(img.bbox) < _area(other.bbox) * DETAIL_SHARE ** 2 \
                    and other.bbox[1] <= img.bbox[1] and img.bbox[3] <= other.bbox[3] + 1:
                roles[img.image_id] = "DETAIL"


def block_role(text: str, box: BBox, page: ParsedPage, t: ClassificationThresholds,
               crowded: frozenset[str] = frozenset()) -> str:
    """``crowded``: margin bands ('header', 'footer') holding too many blocks to be running text."""
    margin = page.height * t.margin_share
    if box[3] < margin and "header" not in crowded:
        return "header"
    if box[1] > page.height - margin and "footer" not in crowded:
        return "footer"
    lines = text.splitlines()
    if any(labelled_value(line) for line in lines):
        return "product_block"
    if sum(1 for cell in lines if attribute_for_label(cell)) >= 2:
        return "table_header"
    if find_codes(text) and find_price(text):
        return "table_row"
    if find_price(text):
        return "price"
    return "marketing"


def _crowded_margins(page: ParsedPage, t: ClassificationThresholds) -> frozenset[str]:
    """A running header or footer is a few blocks; a margin band holding more is content that starts
    or ends there (a table on a tightly cropped scan), not a margin to leave out."""
    margin = page.height * t.margin_share
    top = sum(1 for b in page.text_blocks if b.bbox[3] < margin)
    bottom = sum(1 for b in page.text_blocks if b.bbox[1] > page.height - margin)
    return frozenset(band for band, count in (("header", top), ("footer", bottom)) if count > MARGIN_BLOCKS)


def _rows(page: ParsedPage) -> list[list[str]]:
    lines = sorted((line for block in page.text_blocks for line in block.lines), key=lambda ln: ln.bbox[1])
    rows: list[list] = []
    for line in lines:
        if rows and abs(line.bbox[1] - rows[-1][0].bbox[1]) < 4:
            rows[-1].append(line)
        else:
            rows.append([line])
    return [[line.text for line in sorted(row, key=lambda ln: ln.bbox[0])] for row in rows]


def _picture_columns(boxes: list[BBox], tolerance: float = 20.0) -> list[list[BBox]]:
    """Pictures grouped into columns by their left edges, left to right."""
    columns: list[list[BBox]] = []
    for box in sorted(boxes):
        if columns and box[0] - columns[-1][0][0] <= tolerance:
            columns[-1].append(box)
        else:
            columns.append([box])
    return columns


def _grid_aligned(columns: list[list[BBox]], tolerance: float = 10.0) -> bool:
    """Do the picture columns hold their pictures at the same heights (a grid, not two columns)?"""
    tops = [sorted(b[1] for b in column) for column in columns]
    return len(tops) >= 2 and all(
        len(t) == len(tops[0]) and all(abs(a - b) <= tolerance for a, b in zip(t, tops[0], strict=True))
        for t in tops)


def _text_columns(page: ParsedPage) -> int:
    """Two when product text stacks start in both halves of the page and no text crosses the middle."""
    middle = page.width / 2
    lines = [line.bbox for block in page.text_blocks for line in block.lines
             if labelled_value(line.text) or find_codes(line.text)]
    crossing = sum(1 for box in lines if box[0] < middle < box[2])
    left = sum(1 for box in lines if box[2] <= middle)
    right = sum(1 for box in lines if box[0] >= middle)
    return 2 if left >= 2 and right >= 2 and crossing == 0 else 1


def _row_pitch(page: ParsedPage) -> float:
    tops = sorted({round(line.bbox[1]) for block in page.text_blocks for line in block.lines
                   if find_codes(line.text)})
    sizes = sorted(block.font_size for block in page.text_blocks if block.font_size)
    if len(tops) < 3 or not sizes:
        return 0.0
    gaps = sorted(b - a for a, b in pairwise(tops) if b > a)
    return round(gaps[len(gaps) // 2] / sizes[len(sizes) // 2], 2)


def _width(text: str) -> int:
    return sum(2 if ord(ch) >= 0x2E80 else 1 for ch in text)


def _price_cell(text: str) -> bool:
    """A line that is a price, or a menu's prices per size ('4,50 | 7,00 | 13,00'), and nothing else."""
    found = price_of_cell(ladder_price(text) or text)
    return bool(found and (found.currency or not found.text.isdigit() or len(text.strip()) > len(found.text)))


def _amount_row(cells: list[str]) -> bool:
    """A table row: three cells or more, one of them words, the last an amount ('14 | Поддерживающие
    ролики стрелы | 9 | 10000')."""
    return len(cells) >= 3 and price_of_cell(cells[-1]) is not None and any(
        _width(cell) >= NAME_WIDTH and not price_of_cell(cell) for cell in cells[:-1])


def features_of(page: ParsedPage, image_roles: dict[str, ImageRole]) -> PageFeatures:
    rows = _rows(page)
    texts = [line.text for block in page.text_blocks for line in block.lines]
    pictures = [img for img in page.images if image_roles[img.image_id] == "PRODUCT_MAIN"]
    thumbnails = [img for img in pictures if (img.bbox[3] - img.bbox[1]) < THUMBNAIL]
    products = [img for img in pictures if img not in thumbnails]
    columns = _picture_columns([img.bbox for img in products])
    codes = [find_codes(text) for text in texts]  # each line's codes and label, read once for every measure
    labelled = [bool(labelled_value(text)) for text in texts]
    return PageFeatures(
        model_mentions=sum(len(found) for found in codes),
        price_mentions=sum(len(find_prices(text)) for text in texts),
        header_rows=sum(1 for row in rows if sum(1 for cell in row if attribute_for_label(cell)) >= 2),
        table_rows=sum(1 for row in rows if len(row) >= 3 and find_codes(" ".join(row))
                       and not any(labelled_value(cell) for cell in row)),
        prose_lines=sum(1 for text, found, label in zip(texts, codes, labelled, strict=True)
                        if _width(text) >= PROSE_WIDTH and not label and not found),
        labelled_lines=sum(labelled),
        product_images=len(products), thumbnails=len(thumbnails), text_blocks=len(page.text_blocks),
        image_columns=len(columns),
        grid_aligned=_grid_aligned(columns),
        text_columns=_text_columns(page),
        row_pitch=_row_pitch(page),
        code_cells=sum(1 for text in texts if code_score(text) >= CODE_CELL),
        price_cells=sum(1 for text in texts if _price_cell(text)),
        scanned=page.parser_backend == "ocr" or "SCENE" in image_roles.values(),
        ocr_confidence=page.ocr_confidence,
        price_list_title=any(is_price_list_title(text) for text in texts),
        amount_cells=sum(1 for text in texts if any(ch.isdigit() for ch in text) and price_of_cell(text)),
        leadered_prices=leadered_prices(texts),
        amount_rows=sum(1 for row in rows if _amount_row(row)),
        spaced_rows=sum(1 for text in texts if SPACED_COLUMNS.search(text)),
        captioned_pictures=len(captioned([img.bbox for img in products],
                                         [(ln.bbox, ln.text) for block in page.text_blocks for ln in block.lines])),
    )


def _page_without_products(f: PageFeatures) -> tuple[PageType, float, str] | None:
    """D, only when nothing on the page says it lists products; a scan that reads poorly stays
    unsure (review), since the products may be what OCR could not read."""
    if f.product_signal:
        return None
    if f.scanned and (f.text_blocks == 0 or (f.ocr_confidence or 0.0) < POOR_OCR):
        return "D", 0.5, "scan with little readable text"
    if f.scanned and f.text_blocks >= SHORT_TEXTS and f.prose_lines * 2 < f.text_blocks:
        return "D", 0.5, "scan of short texts without codes or prices"  # products named without them?
    if f.text_blocks == 0 and f.product_images == 0:
        return "D", 0.95, "blank page"
    if f.spaced_rows >= SPACED_ROWS:
        return "D", 0.5, "a list set in columns without codes or prices: perhaps products named only"
    if f.model_mentions == 0 and f.price_mentions == 0:
        if f.product_images >= PICTURED_PRODUCTS and f.text_blocks:
            return "D", 0.5, "product pictures with text but no codes or prices: perhaps products named only"
        if f.amount_rows:
            return "D", 0.5, "table rows without a header, codes or prices: perhaps the previous page's table"
        return "D", 0.8 if f.text_blocks else 0.6, "no model codes or prices"
    if f.labelled_lines == 0 and f.table_rows == 0 and f.model_mentions <= 2:
        return "D", 0.7, "products mentioned in prose only"
    return None


def page_type_of(f: PageFeatures) -> tuple[PageType, float, str]:
    if (without := _page_without_products(f)) is not None:
        return without
    if (f.header_rows or f.table_rows >= 3) and f.product_images <= 1 and f.labelled_lines <= 2:
        return "A", 0.9, "table rows, no product pictures"
    if f.prose_lines and (f.header_rows or f.table_rows) and f.labelled_lines:
        return "B", 0.85, "marketing text, product blocks and a table"
    if f.product_images and f.labelled_lines:
        ratio = f.product_images / max(f.model_mentions, 1)
        return ("C", 0.85, "product pictures with product text") if ratio >= 0.2 else \
            ("B", 0.7, "far more products than pictures")
    if f.labelled_lines and not f.product_images:
        return "C", 0.72, "product blocks without extracted pictures (a scan)"
    if f.model_mentions >= 3:
        return "A", 0.75, "several model codes without pictures"
    if f.captioned_pictures >= SIGNAL_MIN:
        return "C", 0.75, "pictures named by their captions"
    return "B", 0.6, "product text without a clear structure"


def layout_of(f: PageFeatures, page_type: PageType) -> Layout | None:
    """L4 dense (many small products, or table rows packed tighter than 1.9 font sizes), L2 grid
    (picture columns at the same heights), L3 two independent columns, else L1 single column."""
    if page_type == "D":
        return None
    if page_type == "A":
        return "L4" if 0 < f.row_pitch < DENSE_ROW_PITCH else "L1"
    if max(f.product_images, f.model_mentions) > 16:
        return "L4"
    if f.grid_aligned and f.product_images >= 4:
        return "L2"
    if f.image_columns >= 2 or f.text_columns == 2:
        return "L3"
    return "L1"


def classify_page(page: ParsedPage, profile: ThresholdProfile) -> PageClassification:
    t = profile.classification
    anchors = _product_text(page)
    image_roles = {img.image_id: image_role(img, page, t, anchors) for img in page.images}
    _details(page, image_roles)
    crowded = _crowded_margins(page, t)
    roles = {b.block_id: block_role(b.text, b.bbox, page, t, crowded) for b in page.text_blocks}
    features = features_of(page, image_roles)
    page_type, confidence, reason = page_type_of(features)
    return PageClassification(
        page_type=page_type, page_type_confidence=confidence, layout=layout_of(features, page_type),
        block_roles=roles, image_roles=image_roles, needs_review=confidence < t.page_type_min_confidence,
        reason=reason,
        detail={"features": asdict(features), "rule": reason, "rule_page_type": page_type, "confidence": confidence,
                "thresholds": {"page_type_min_confidence": t.page_type_min_confidence,
                               "decoration_area_share": t.decoration_area_share, "margin_share": t.margin_share}},
    )
