"""bind_page: a failed page, review from classification, final fallback, ambiguity and rules."""

import pytest
from binder_pages import PROFILE, classification, parsed_page, region, sku

from skuflow_binder.domain.dedup import SeenImages
from skuflow_binder.domain.page import bind_page
from skuflow_contracts.profile import ThresholdProfile

PHOTO = region("pic", (0, 0, 100, 100))
CAPTION = sku((0, 110, 100, 130))


def result(skus=(CAPTION,), images=(PHOTO,), method="two_stage", profile=PROFILE, **kwargs):
    cls = classification(**kwargs)
    return bind_page(parsed_page(*images), cls, list(skus), method, profile)


def test_a_clean_page_is_completed_with_its_binding():
    page = result()
    assert (page.status, page.needs_review, page.page_type, page.layout) == ("AI_COMPLETED", False, "C", "L1")
    assert [(b.sku_id, b.image_id, b.confidence) for b in page.bindings] == [("h_p01_001", "pic", 0.95)]
    assert page.validation.triggered_rules == [] and page.extraction_method == "two_stage"


def test_a_failed_page_is_ai_failed_with_its_reason():
    failed = parsed_page(PHOTO, status="failed", failure_reason="render_timeout")
    page = bind_page(failed, classification(), [CAPTION], None, PROFILE)
    assert (page.status, page.needs_review, page.page_type, page.extraction_method) == ("AI_FAILED", True, None, None)
    assert page.validation.triggered_rules == ["parse_failed:render_timeout"] and page.validation.has_errors
    assert page.skus == [] and page.bindings == []


def test_a_low_confidence_classification_sends_the_page_to_review():
    page = result(needs_review=True)
    assert (page.status, page.needs_review) == ("HUMAN_QUEUED", True)


def test_the_final_fallback_sends_the_page_to_review_with_its_reason():
    page = bind_page(parsed_page(PHOTO), classification(), [], "final_fallback", PROFILE,
                     fallback_reason="all_extraction_failed")
    assert (page.status, page.needs_review, page.fallback_reason) == ("HUMAN_QUEUED", True, "all_extraction_failed")
    assert page.validation.triggered_rules == []


def test_an_ambiguous_binding_sends_the_page_to_review():
    images = [region("left", (0, 100, 100, 200), content="a"), region("right", (220, 100, 320, 200), content="b")]
    page = result(skus=[sku((110, 120, 210, 180))], images=images)
    assert page.bindings[0].is_ambiguous and page.needs_review


@pytest.mark.parametrize("on_warning, review", [(True, True), (False, False)])
def test_a_warning_rule_sends_the_page_to_review_as_the_profile_says(on_warning, review):
    profile = ThresholdProfile(version="t", review_on_warning=on_warning)
    far = sku((0, 700, 100, 720))  # beyond L1's 200 pt: unbound, sku_without_image
    page = result(skus=[far], profile=profile)
    assert page.validation.triggered_rules[0] == "sku_without_image:h_p01_001"
    assert not page.validation.has_errors and page.needs_review is review


def test_an_error_rule_marks_the_page_and_sends_it_to_review():
    page = result(skus=[sku((0, 110, 100, 130), price="0")])
    assert page.validation.has_errors and page.needs_review
    assert "price_format_invalid:h_p01_001" in page.validation.triggered_rules


def test_only_valid_skus_are_bound_and_all_are_kept():
    invalid = sku((0, 110, 100, 130), n=2, validity="invalid")
    page = result(skus=[invalid, sku((0, 140, 100, 160))])
    assert [b.sku_id for b in page.bindings] == ["h_p01_001"]
    assert len(page.skus) == 2


def test_logos_seen_on_an_earlier_page_are_duplicates_on_the_next():
    seen = SeenImages()
    logo = region("logo", (30, 10, 90, 40), content="L")
    cls = classification(roles={"logo": "LOGO"})
    first = bind_page(parsed_page(logo), cls, [], "two_stage", PROFILE, seen)
    second = bind_page(parsed_page(logo, number=2), cls, [], "two_stage", PROFILE, seen)
    assert (first.images[0].is_duplicate, second.images[0].is_duplicate) == (False, True)
