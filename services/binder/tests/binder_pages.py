"""SKU, image and page builders for the binder tests (A4 portrait: 595 × 842 pt)."""

from skuflow_contracts.ir import ImageRegion, ParsedPage
from skuflow_contracts.profile import profile_for
from skuflow_contracts.results import ImageRecord, PageClassification, SkuAttributes, SkuRecord

PROFILE = profile_for("v1")
THRESHOLDS = PROFILE.binding


def sku(box, n=1, validity="valid", model="", price="1", origin="card", group=None, **attributes):
    return SkuRecord(sku_id=f"h_p01_{n:03d}", validity=validity, source_bbox=box, confidence=0.9, origin=origin,
                     attributes=SkuAttributes(model=f"X-{n:03d}" if model == "" else model, price=price, **attributes),
                     variant_group=group)


def img(image_id, box, role="PRODUCT_MAIN", duplicate=False):
    return ImageRecord(image_id=image_id, bbox=box, role=role, short_edge=700, is_duplicate=duplicate)


def region(image_id, box=(50, 100, 250, 300), content="c", phash=None, px=700):
    return ImageRegion(image_id=image_id, bbox=box, width_px=px, height_px=px, content_hash=content,
                       perceptual_hash=phash)


def parsed_page(*images, number=1, status="ok", failure_reason=None):
    return ParsedPage(page=number, width=595, height=842, parser_backend="pymupdf", images=list(images),
                      status=status, failure_reason=failure_reason)


def classification(page_type="C", layout="L1", roles=None, needs_review=False):
    return PageClassification(page_type=page_type, page_type_confidence=0.9, layout=layout,
                              image_roles=roles or {}, needs_review=needs_review)
