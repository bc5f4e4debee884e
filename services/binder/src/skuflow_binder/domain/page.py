"""Assemble a page's result: image records (roles, quality, dedup), bindings and validation."""

from __future__ import annotations

from skuflow_binder.domain.binding import bind_sku
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.results import (
    ExtractionMethod,
    ImageRecord,
    PageClassification,
    PageResult,
    SkuRecord,
    Validation,
)

PARSE_FAILED = "AI_FAILED"


def image_records(page: ParsedPage, classification: PageClassification) -> list[ImageRecord]:
    """One record per placed image; a repeat of the same bytes on the page is a duplicate (BR-28)."""
    seen: set[str] = set()
    records = []
    for image in page.images:
        duplicate = image.content_hash in seen
        seen.add(image.content_hash)
        records.append(ImageRecord(
            image_id=image.image_id, bbox=image.bbox,
            role=classification.image_roles.get(image.image_id, "PRODUCT_MAIN"),
            short_edge=image.short_edge, is_duplicate=duplicate,
            # INV-03 tolerant mode (T78): a small image is flagged, never blocked.
            quality_warning=image.quality_warning or (None if image.search_eligible else "low_resolution"),
            source_uri=image.uri,
        ))
    return records


def validate(skus: list[SkuRecord]) -> Validation:
    rules = [f"INV-06:{sku.sku_id}" for sku in skus if sku.validity == "invalid"]
    return Validation(triggered_rules=rules, has_errors=bool(rules))


def bind_page(page: ParsedPage, classification: PageClassification, skus: list[SkuRecord],
              method: ExtractionMethod | None) -> PageResult:
    if page.status == "failed":
        return PageResult(page=page.page, status=PARSE_FAILED, page_type=None, layout=None, needs_review=True,
                          parser_backend=page.parser_backend, extraction_method=None,
                          validation=Validation(triggered_rules=[f"parse_failed:{page.failure_reason}"],
                                                has_errors=True))
    images = image_records(page, classification)
    bindings = [bind_sku(sku, images, classification.layout) for sku in skus if sku.validity == "valid"]
    validation = validate(skus)
    expects_products = classification.page_type != "D"
    needs_review = (classification.needs_review or any(b.is_ambiguous for b in bindings)
                    or (expects_products and not any(s.validity == "valid" for s in skus)))
    return PageResult(
        page=page.page, status="HUMAN_QUEUED" if needs_review else "AI_COMPLETED",
        page_type=classification.page_type, layout=classification.layout, needs_review=needs_review,
        parser_backend=page.parser_backend, extraction_method=method, skus=skus, images=images,
        bindings=bindings, validation=validation,
    )
