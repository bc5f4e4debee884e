"""Profile versions (seed-001a §7.29): numbering, the optimistic lock, the rollback target, INV-01/02."""

import pytest

from skuflow_gateway.domain.profiles import (
    ProfileConflict,
    ProfileInvalid,
    built,
    check_expected,
    config_version,
    next_version,
    rollback_target,
)


def test_versions_count_up_past_nine():
    assert [next_version(v) for v in ("v1", "v9", "v10")] == ["v2", "v10", "v11"]
    with pytest.raises(ValueError):
        next_version("latest")


def test_an_update_against_a_version_that_is_no_longer_active_is_a_conflict():
    check_expected("v3", "v3")
    with pytest.raises(ProfileConflict) as refused:
        check_expected("v3", "v2")
    assert refused.value.code == "CONFIG_CONFLICT"


def test_a_rollback_needs_a_version_the_active_one_replaced():
    assert rollback_target("v1") == "v1"
    with pytest.raises(ProfileConflict) as refused:
        rollback_target(None)
    assert refused.value.code == "NO_ROLLBACK_TARGET"


def test_settings_left_out_take_the_seeds_defaults_and_the_name_is_the_version():
    profile = built("m1:furniture:v2", "furniture", {"binding": {"ambiguity_gap": 0.3}})
    assert (profile.version, profile.category, profile.binding.ambiguity_gap) == ("m1:furniture:v2", "furniture", 0.3)
    assert profile.classification.a_threshold == 0.8


@pytest.mark.parametrize("settings, broken, invariants", [
    ({"classification": {"b_threshold": 0.7, "pv_threshold": 0.6, "a_threshold": 0.8}}, "INV-01", ("INV-01",)),
    ({"confidence_weights": {"text": 0.5, "structure": 0.3, "image": 0.3}}, "INV-02", ("INV-02",)),
    ({"evaluation": {"dimension_weights": {"text_readability": 1.5}}}, "INV-02", ("INV-02",)),
    ({"extraction": {"sku_min_confidence": "high"}}, "extraction.sku_min_confidence", ()),
    ({"evaluation": {"prescan": {"all_blank_rejct": False}}},
     r"'evaluation.prescan.all_blank_rejct' \(did you mean 'evaluation.prescan.all_blank_reject'\?\)", ()),
    ({"bindingz": {}, "zzz": 1}, r"'bindingz' \(did you mean 'binding'\?\); unknown setting 'zzz'$", ()),
])
def test_settings_that_break_an_invariant_or_a_type_are_refused_with_the_reason(settings, broken, invariants):
    with pytest.raises(ProfileInvalid, match=broken) as refused:
        built("m1:p:v1", "general", settings)
    assert refused.value.invariants == invariants  # what the API counts in invariant_violation_total


def test_two_merchants_profiles_of_one_name_have_different_config_versions():
    assert config_version("m1", "furniture", "v2") != config_version("m2", "furniture", "v2")
