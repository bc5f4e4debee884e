"""Assemble a page's result: image records (roles, quality, dedup), bindings and validation."""

from __future__ import annotations

from skuflow_binder.domain.binding import bind_skus
from skuflow_binder.domain.dedup import SeenImages, image_records
from skuflow_binder.domain.rules import PageFacts, findings_for, review_needed
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.profile import ThresholdProfile
from skuflow_contracts.results import (
    PARSE_FAILED,
    ExtractionMethod,
    PageClassification,
    PageResult,
    SkuRecord,
    Validation,
)


def bind_page(page: ParsedPage, classification: PageClassification, skus: list[SkuRecord],
              method: ExtractionMethod | None, profile: ThresholdProfile, seen: SeenImages | None = None,
              fallback_reason: str | None = None, doubts: list[str] | None = None) -> PageResult:
    """Dedup, bind and validate one page. ``seen`` carries the job's logos across pages; ``doubts`` are
    the extractor's reasons to doubt its reading. Every reason a person must look is kept."""
    if page.status == "failed":
        return PageResult(page=page.page, status=PARSE_FAILED, page_type=None, layout=None, needs_review=True,
                          parser_backend=page.parser_backend, extraction_method=None,
                          review_reasons=[f"parse_failed:{page.failure_reason}"],
                          validation=Validation(triggered_rules=[f"parse_failed:{page.failure_reason}"],
                                                has_errors=True))
    images = image_records(page, classification, seen or SeenImages())
    valid = [sku for sku in skus if sku.validity == "valid"]
    bindings = bind_skus(valid, images, classification.layout, profile.binding)
    findings = findings_for(PageFacts(classification.page_type, skus, images, bindings), profile)
    validation = Validation(triggered_rules=[f.label for f in findings],
                            has_errors=any(f.severity == "error" for f in findings))
    reasons = [*([f"classification:{classification.reason}"] if classification.needs_review else []),
               *(doubts or []), *(["ambiguous_binding"] if any(b.is_ambiguous for b in bindings) else []),
               *([f.label for f in findings] if review_needed(findings, profile) else [])]
    if method == "final_fallback" and not any(r.startswith("nothing_read") for r in reasons):
        reasons.append("nothing_read")
    needs_review = bool(reasons)
    return PageResult(
        page=page.page, status="HUMAN_QUEUED" if needs_review else "AI_COMPLETED",
        page_type=classification.page_type, layout=classification.layout, needs_review=needs_review,
        parser_backend=page.parser_backend, extraction_method=method, fallback_reason=fallback_reason,
        review_reasons=reasons,
        skus=skus, images=images, bindings=bindings, validation=validation,
    )
