"""Consistency rules (seed-000 §11.1), category-schema rules (seed-001a §7.14) and when a page needs review."""

import pytest
from binder_pages import PROFILE, img, sku

from skuflow_binder.domain.rules import Finding, PageFacts, category_rules, consistency, findings_for, review_needed
from skuflow_contracts.profile import CategorySchema, ThresholdProfile, ValidationRule
from skuflow_contracts.results import BindingRecord

PIC = img("pic", (0, 0, 100, 100))


def bound(s, image_id="pic"):
    return BindingRecord(sku_id=s.sku_id, image_id=image_id, confidence=0.9, method="vertical_stack")


def rules(skus, images=(), bindings=(), page_type="C"):
    return {f.rule: f for f in consistency(PageFacts(page_type, list(skus), list(images), list(bindings)))}


def test_a_clean_page_triggers_nothing():
    one = sku((0, 110, 100, 130))
    assert rules([one], [PIC], [bound(one)]) == {}


def test_sku_without_image_is_a_warning_naming_the_skus():
    one, two = sku((0, 110, 100, 130), n=1), sku((0, 400, 100, 430), n=2)
    finding = rules([one, two], [PIC], [bound(one)])["sku_without_image"]
    assert (finding.severity, finding.sku_ids, finding.label) == ("warning", ("h_p01_002",),
                                                                   "sku_without_image:h_p01_002")


@pytest.mark.parametrize("skus, images, page_type", [
    ([sku((0, 110, 100, 130), origin="table_row")], [PIC], "B"),  # table rows need no picture
    ([sku((0, 110, 100, 130))], [PIC], "A"),
    ([sku((0, 110, 100, 130))], [], "C"),  # nothing to bind to
    ([sku((0, 110, 100, 130))], [img("pic", (0, 0, 100, 100), role="LOGO")], "C"),
    ([sku((0, 110, 100, 130))], [img("pic", (0, 0, 100, 100), duplicate=True)], "C"),
    ([sku((0, 110, 100, 130), validity="invalid")], [PIC], "C"),
])
def test_sku_without_image_does_not_fire(skus, images, page_type):
    assert "sku_without_image" not in rules(skus, images, page_type=page_type)


def test_image_without_sku_is_info_for_unused_deliverable_pictures():
    one = sku((0, 110, 100, 130))
    images = [PIC, img("detail", (200, 0, 300, 100), role="DETAIL"), img("logo", (0, 0, 50, 20), role="LOGO"),
              img("dup", (400, 0, 500, 100), duplicate=True)]
    finding = rules([one], images, [bound(one)])["image_without_sku"]
    assert (finding.severity, finding.sku_ids) == ("info", ("detail",))
    assert "image_without_sku" not in rules([one], images, [bound(one)], page_type="A")
    assert "image_without_sku" not in rules([sku((0, 0, 1, 1), validity="invalid")], [PIC])


def test_duplicate_model_in_page_is_a_warning_case_insensitively():
    skus = [sku((0, 0, 1, 1), n=1, model="ab-100"), sku((0, 5, 1, 6), n=2, model="AB-100"), sku((0, 9, 1, 10), n=3)]
    finding = rules(skus, page_type="A")["duplicate_model_in_page"]
    assert (finding.severity, finding.sku_ids) == ("warning", ("h_p01_001", "h_p01_002"))


def test_duplicate_names_count_when_there_is_no_model():
    skus = [sku((0, 0, 1, 1), n=n, model=None, product_name="杯子") for n in (1, 2)]
    assert "duplicate_model_in_page" in rules(skus, page_type="A")


@pytest.mark.parametrize("price, fires", [("0", True), ("1000000", True), ("免费", True), ("12.50", False),
                                          ("999999", False), (None, False)])
def test_price_format_invalid_is_an_error(price, fires):
    found = rules([sku((0, 0, 1, 1), price=price)], page_type="A")
    assert ("price_format_invalid" in found) is fires
    if fires:
        assert found["price_format_invalid"].severity == "error"


def test_all_skus_invalid_is_an_error_only_when_there_were_skus():
    assert rules([sku((0, 0, 1, 1), validity="invalid")], page_type="A")["all_skus_invalid"].severity == "error"
    assert rules([], page_type="A") == {}


def profile(*validation_rules, category="furniture", review_on_warning=True):
    schema = CategorySchema(category="furniture", validation_rules=validation_rules)
    return ThresholdProfile(version="test", category=category, category_schemas=(schema,),
                            review_on_warning=review_on_warning)


def rule(rule_type, severity="warning", **params):
    return ValidationRule(name=f"my_{rule_type}", rule_type=rule_type, params=params, severity=severity)


def fired(skus, *validation_rules):
    return [f.rule for f in category_rules(skus, validation_rules)]


def test_required_field_fires_when_a_valid_sku_lacks_the_field_even_as_a_custom_attribute():
    with_size = sku((0, 0, 1, 1), size="1m")
    custom = sku((0, 0, 1, 1), n=2).model_copy(update={"custom_attributes": {"power": "20W"}})
    assert fired([with_size], rule("required_field", field="size")) == []
    assert fired([with_size, sku((0, 0, 1, 1), n=3)], rule("required_field", field="size")) == ["my_required_field"]
    assert fired([custom], rule("required_field", field="power")) == []


@pytest.mark.parametrize("price, fires", [("5", False), ("50", False), ("51", True), ("4", True)])
def test_range_check(price, fires):
    assert bool(fired([sku((0, 0, 1, 1), price=price)], rule("range_check", field="price", min=5, max=50))) is fires


def test_regex_match_checks_present_values_only():
    pattern = rule("regex_match", field="model", pattern=r"^[A-Z]{2}-\d{3}$")
    assert fired([sku((0, 0, 1, 1), model="AB-100")], pattern) == []
    assert fired([sku((0, 0, 1, 1), model="AB100")], pattern) == ["my_regex_match"]
    assert fired([sku((0, 0, 1, 1), color=None)], rule("regex_match", field="color", pattern="^red$")) == []


def test_max_count():
    skus = [sku((0, 0, 1, 1), n=n) for n in range(3)]
    assert fired(skus, rule("max_count", max=3)) == []
    assert fired(skus, rule("max_count", max=2)) == ["my_max_count"]


def test_category_rules_look_at_valid_skus_only():
    assert fired([sku((0, 0, 1, 1), validity="invalid")], rule("required_field", field="size")) == []


def test_findings_use_the_schema_of_the_profiles_category_only():
    skus = [sku((0, 0, 1, 1))]
    facts = PageFacts("A", skus, [], [])
    size_rule = rule("required_field", severity="error", field="size")
    assert [f.label for f in findings_for(facts, profile(size_rule))] == ["my_required_field"]
    assert findings_for(facts, profile(size_rule, category="toys")) == []
    assert findings_for(facts, PROFILE) == []


@pytest.mark.parametrize("severities, on_warning, review", [
    ((), True, False), (("info",), True, False), (("warning",), True, True), (("warning",), False, False),
    (("error",), False, True), (("info", "warning"), False, False),
])
def test_review_needed(severities, on_warning, review):
    findings = [Finding(f"r{n}", severity) for n, severity in enumerate(severities)]
    assert review_needed(findings, profile(review_on_warning=on_warning)) is review


def test_fields_a_category_requires_are_error_rules_of_their_own():
    schema = CategorySchema(category="electronics", required_fields=("price",))
    profile = ThresholdProfile(version="t", category="electronics", category_schemas=(schema,))
    unpriced = sku((0, 0, 1, 1), price=None, size="1m")
    findings = findings_for(PageFacts("C", [unpriced], [], []), profile)
    assert [(f.rule, f.severity) for f in findings if f.rule.startswith("required_")] == [("required_price", "error")]
