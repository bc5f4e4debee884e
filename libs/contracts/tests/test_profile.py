"""Threshold profiles: seed defaults, INV-01/INV-02 refused at construction, lookup by version."""

import pytest
from pydantic import ValidationError

from skuflow_contracts.profile import (
    PROFILES,
    BindingThresholds,
    CategorySchema,
    ClassificationThresholds,
    ThresholdProfile,
    UnknownProfile,
    ValidationRule,
    profile_for,
)


def test_the_v1_profile_carries_the_seed_defaults():
    profile = profile_for("v1")
    assert profile is PROFILES["v1"] and profile.version == "v1"
    assert profile.classification.page_type_min_confidence == 0.7
    assert profile.extraction.two_stage_invalid_threshold == 0.3
    assert profile.binding.distance_thresholds == {"L1": 200, "L2": 100, "L3": 150, "L4": 80}
    assert (profile.binding.ambiguity_gap, profile.binding.top_k) == (0.2, 3)
    assert profile.review_on_warning is True


def test_an_unknown_profile_is_a_lookup_error_naming_the_known_ones():
    with pytest.raises(UnknownProfile, match=r"'v999'.*v1"):
        profile_for("v999")
    assert issubclass(UnknownProfile, LookupError)


@pytest.mark.parametrize("b, pv, a", [(0.6, 0.4, 0.8), (0.4, 0.8, 0.6), (0.4, 0.4, 0.8), (0.4, 0.6, 0.6)])
def test_inv_01_routing_thresholds_must_be_strictly_ordered(b, pv, a):
    with pytest.raises(ValidationError, match="INV-01"):
        ThresholdProfile(version="x", classification=ClassificationThresholds(
            b_threshold=b, pv_threshold=pv, a_threshold=a))


def test_inv_02_confidence_weights_must_sum_to_one():
    with pytest.raises(ValidationError, match="INV-02"):
        ThresholdProfile(version="x", confidence_weights={"text": 0.5, "structure": 0.3, "image": 0.3})
    ok = ThresholdProfile(version="x", confidence_weights={"text": 0.5, "structure": 0.2, "image": 0.3})
    assert sum(ok.confidence_weights.values()) == pytest.approx(1.0)


def test_distance_threshold_per_layout_with_a_default_for_unknown_or_missing_layouts():
    binding = BindingThresholds()
    assert [binding.distance_threshold(layout) for layout in ("L1", "L2", "L3", "L4")] == [200, 100, 150, 80]
    assert binding.distance_threshold(None) == binding.distance_threshold("L9") == 150.0


def test_the_category_schema_is_the_one_named_by_the_profile_category():
    rule = ValidationRule(name="price_range", rule_type="range_check", params={"field": "price", "max": 10})
    furniture = CategorySchema(category="furniture", required_fields=("size",), validation_rules=(rule,))
    toys = CategorySchema(category="toys")
    assert ThresholdProfile(version="x", category="furniture",
                            category_schemas=(toys, furniture)).category_schema() == furniture
    assert ThresholdProfile(version="x", category="garden", category_schemas=(toys,)).category_schema() is None
    assert rule.severity == "warning"


def test_a_validation_rule_type_outside_the_declared_checkers_is_refused():
    with pytest.raises(ValidationError):
        ValidationRule(name="evil", rule_type="python_expression", params={"expr": "__import__('os')"})
