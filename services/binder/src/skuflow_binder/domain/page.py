"""Assemble a page's result: image records (roles, quality, dedup), bindings and validation."""

from __future__ import annotations

from skuflow_binder.domain.binding import bind_skus
from skuflow_binder.domain.dedup import SeenImages, image_records
from skuflow_binder.domain.rules import PageFacts, findings_for, review_needed
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.profile import ThresholdProfile
from skuflow_contracts.results import (
    ExtractionMethod,
    PageClassification,
    PageResult,
    SkuRecord,
    Validation,
)

PARSE_FAILED = "AI_FAILED"


def bind_page(page: ParsedPage, classification: PageClassification, skus: list[SkuRecord],
              method: ExtractionMethod | None, profile: ThresholdProfile, seen: SeenImages | None = None,
              fallback_reason: str | None = None) -> PageResult:
    """Dedup, bind and validate one page. ``seen`` carries the job's logos across pages."""
    if page.status == "failed":
        return PageResult(page=page.page, status=PARSE_FAILED, page_type=None, layout=None, needs_review=True,
                          parser_backend=page.parser_backend, extraction_method=None,
                          validation=Validation(triggered_rules=[f"parse_failed:{page.failure_reason}"],
                                                has_errors=True))
    images = image_records(page, classification, seen or SeenImages())
    valid = [sku for sku in skus if sku.validity == "valid"]
    bindings = bind_skus(valid, images, classification.layout, profile.binding)
    findings = findings_for(PageFacts(classification.page_type, skus, images, bindings), profile)
    validation = Validation(triggered_rules=[f.label for f in findings],
                            has_errors=any(f.severity == "error" for f in findings))
    needs_review = (classification.needs_review or method == "final_fallback"
                    or any(b.is_ambiguous for b in bindings) or review_needed(findings, profile))
    return PageResult(
        page=page.page, status="HUMAN_QUEUED" if needs_review else "AI_COMPLETED",
        page_type=classification.page_type, layout=classification.layout, needs_review=needs_review,
        parser_backend=page.parser_backend, extraction_method=method, fallback_reason=fallback_reason,
        skus=skus, images=images, bindings=bindings, validation=validation,
    )
