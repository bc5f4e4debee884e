"""Page type (A table / B mixed / C image+text blocks / D no products) and layout (L1-L4).

Deterministic rules over the IR's geometry and text: no LLM needed. Every decision records its
features and reason (NFR-13) so a reviewer can see why a page went where it did. Issue #5
deepens these rules; the interface stays.
"""

from __future__ import annotations

from dataclasses import dataclass

from skuflow_contracts.ir import BBox, ImageRegion, ParsedPage
from skuflow_contracts.results import ImageRole, Layout, PageClassification, PageType
from skuflow_contracts.vocabulary import MODEL_CODE, PRICE, attribute_for_label, labelled_value

PAGE_TYPE_MIN_CONFIDENCE = 0.7
DECORATION_AREA_SHARE = 0.01  # images smaller than 1% of the page are logos or ornaments
MARGIN_SHARE = 0.08  # top/bottom bands where headers, footers and logos live


@dataclass(frozen=True)
class PageFeatures:
    model_mentions: int
    price_mentions: int
    header_rows: int
    product_images: int
    text_blocks: int
    image_columns: int


def _area(box: BBox) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def image_role(image: ImageRegion, page: ParsedPage) -> ImageRole:
    share = _area(image.bbox) / (page.width * page.height)
    in_margin = image.bbox[3] < page.height * MARGIN_SHARE or image.bbox[1] > page.height * (1 - MARGIN_SHARE)
    if share < DECORATION_AREA_SHARE:
        return "LOGO" if in_margin else "DECORATION"
    if in_margin and share < 0.03:
        return "LOGO"
    return "PRODUCT_MAIN"


def block_role(text: str, box: BBox, page: ParsedPage) -> str:
    if box[3] < page.height * MARGIN_SHARE:
        return "header"
    if box[1] > page.height * (1 - MARGIN_SHARE):
        return "footer"
    labelled = [labelled_value(line) for line in text.splitlines()]
    if any(labelled):
        return "product_block"
    cells = text.splitlines()
    if sum(1 for cell in cells if attribute_for_label(cell)) >= 2:
        return "table_header"
    if MODEL_CODE.search(text) and PRICE.search(text):
        return "table_row"
    if PRICE.search(text):
        return "price"
    return "marketing"


def _columns(boxes: list[BBox], tolerance: float = 20.0) -> int:
    lefts: list[float] = []
    for box in sorted(boxes):
        if not lefts or box[0] - lefts[-1] > tolerance:
            lefts.append(box[0])
    return len(lefts)


def features_of(page: ParsedPage, roles: dict[int, str], image_roles: dict[str, ImageRole]) -> PageFeatures:
    products = [img for img in page.images if image_roles[img.image_id] == "PRODUCT_MAIN"]
    return PageFeatures(
        model_mentions=sum(len(MODEL_CODE.findall(b.text)) for b in page.text_blocks),
        price_mentions=sum(len(PRICE.findall(b.text)) for b in page.text_blocks),
        header_rows=sum(1 for r in roles.values() if r == "table_header"),
        product_images=len(products),
        text_blocks=len(page.text_blocks),
        image_columns=_columns([img.bbox for img in products]),
    )


def page_type_of(f: PageFeatures) -> tuple[PageType, float, str]:
    if f.text_blocks == 0 and f.product_images == 0:
        return "D", 0.95, "blank page"
    if f.model_mentions == 0 and f.price_mentions == 0:
        return "D", 0.8 if f.text_blocks else 0.6, "no model codes or prices"
    if f.header_rows and f.product_images <= 1:
        return "A", 0.9, "table header with product rows"
    if f.product_images and f.model_mentions:
        ratio = f.product_images / max(f.model_mentions, 1)
        if 0.5 <= ratio <= 2:
            return "C", 0.85, "product images paired with product text"
        return "B", 0.7, "images and product text in unequal numbers"
    if f.model_mentions >= 3 and f.product_images == 0:
        return "A", 0.75, "several model codes without images"
    return "B", 0.6, "product text without a clear structure"


def layout_of(f: PageFeatures, page_type: PageType) -> Layout | None:
    if page_type == "D":
        return None
    items = max(f.product_images, f.model_mentions if page_type == "A" else 0)
    if items > 16:
        return "L4"
    if f.image_columns >= 2 and f.product_images >= 4:
        return "L2"
    if f.image_columns == 2:
        return "L3"
    return "L1"


def classify_page(page: ParsedPage) -> PageClassification:
    image_roles = {img.image_id: image_role(img, page) for img in page.images}
    roles = {b.block_id: block_role(b.text, b.bbox, page) for b in page.text_blocks}
    features = features_of(page, roles, image_roles)
    page_type, confidence, reason = page_type_of(features)
    return PageClassification(
        page_type=page_type, page_type_confidence=confidence, layout=layout_of(features, page_type),
        block_roles=roles, image_roles=image_roles,
        needs_review=confidence < PAGE_TYPE_MIN_CONFIDENCE,
        reason=f"{reason}; features={features.__dict__}",
    )
