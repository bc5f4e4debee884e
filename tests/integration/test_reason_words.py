"""Every reason the services write for a page a person must look at has words (issue 41): the
reasons are taken from the producers themselves (extractor, binder, evaluator, collab), so a new
kind of reason without a sentence in skuflow_contracts.reasons fails here."""

from skuflow_binder.domain.page import bind_page
from skuflow_binder.domain.rules import PageFacts, consistency
from skuflow_collab.domain.tasks import REASONS_APART, task_for
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.profile import profile_for
from skuflow_contracts.reasons import CATEGORY_RULE, OTHER, recognise
from skuflow_contracts.results import (
    BindingRecord,
    ImageRecord,
    PageClassification,
    PageResult,
    SkuAttributes,
    SkuRecord,
)
from skuflow_evaluator.domain.evaluation import _reviews
from skuflow_evaluator.domain.routing import RoutingDecision
from skuflow_extractor.domain.assist import adopt
from skuflow_extractor.domain.extraction import extract_page
from skuflow_extractor.reading.assembly import PageReading
from skuflow_extractor.reading.pipeline import review_reasons

PROFILE = profile_for("v1")
HASH = "d7e3bd58" + "0" * 56
PAGE = ParsedPage(page=2, width=595, height=842, parser_backend="pymupdf")
TABLE_PAGE = PageClassification(page_type="A", page_type_confidence=0.5, layout="L1", needs_review=True,
                                reason="several model codes without pictures")


def sku(n: int, model: str = "SF-1", price: str | None = "9.90", confidence: float = 0.9) -> SkuRecord:
    return SkuRecord(sku_id=f"d7e3bd58_p02_{n:03d}", validity="valid", source_bbox=(50, 100, 300, 120),
                     confidence=confidence, attributes=SkuAttributes(model=model, price=price))


def written() -> list[str]:
    reasons = [*review_reasons(PageReading([], 0.2, []), 0.6, "A"),
               *review_reasons(PageReading([sku(1, confidence=0.3)], 0.41, [0]), 0.6, "A", 0.5)]
    fallback = extract_page(PAGE, TABLE_PAGE, HASH, PROFILE)
    reasons += [*fallback.review_reasons, fallback.fallback_reason or ""]
    reasons += adopt(fallback, None, "two_stage", "qwen-plus", PAGE, HASH, PROFILE, flagged=False).review_reasons
    failed = PAGE.model_copy(update={"status": "failed", "failure_reason": "page_timeout: over 120 s"})
    reasons += bind_page(failed, TABLE_PAGE, [], None, PROFILE).review_reasons
    reasons += bind_page(PAGE, TABLE_PAGE, [], "final_fallback", PROFILE, doubts=["unread_codes:4"]).review_reasons
    photo = ImageRecord(image_id="img_1", bbox=(300, 100, 350, 140), role="PRODUCT_MAIN", short_edge=400)
    skus = [sku(1), sku(2), sku(3, model="SF-3", price="free")]
    reasons += [f.label for f in consistency(PageFacts("C", skus, [photo], []))]
    reasons += [f.label for f in consistency(PageFacts("C", [sku(1).model_copy(update={"validity": "invalid"})],
                                                       [], []))]
    reasons += _reviews(RoutingDecision("HYBRID", "between PV and A"), {2: 0.41}, PROFILE).values()
    ambiguous = BindingRecord(sku_id=sku(1).sku_id, image_id=None, confidence=0.5, is_ambiguous=True, method="grid")
    pending = sku(2).model_copy(update={"status": "PENDING_CONFIRMATION"})
    for update in ({"bindings": [ambiguous]}, {"skus": [pending]}, {"review_reasons": []},
                   {"skus": [], "extraction_method": "final_fallback", "fallback_reason": "all_extraction_failed"}):
        page = PageResult(page=2, status="HUMAN_QUEUED", page_type="C", layout="L2", needs_review=True,
                          parser_backend="pymupdf", extraction_method="two_stage", skus=[sku(1)]).model_copy(
            update=update)
        reasons += task_for(page).reason.split(REASONS_APART)
    reasons += task_for(PageResult(page=2, status="AI_COMPLETED", page_type="C", layout="L2", needs_review=False,
                                   parser_backend="pymupdf", extraction_method="two_stage"), "HUMAN_ALL").reason \
        .split(REASONS_APART)
    return reasons


def test_every_reason_the_services_write_has_its_own_words():
    reasons = written()
    assert len(set(reasons)) >= 15, reasons  # the producers above still write what this test expects
    unworded = [r for r in reasons if recognise(r)[0] in (CATEGORY_RULE, OTHER)]
    assert unworded == []
