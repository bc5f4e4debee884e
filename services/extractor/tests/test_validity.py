"""Validity per INV-06 with the missing_specifications warning, INV-12 null-filled keys, stable ids."""

import pytest
from extractor_pages import HASH, PROFILE

from skuflow_contracts.results import SkuAttributes
from skuflow_extractor.domain.drafts import SkuDraft
from skuflow_extractor.domain.validity import judge, records

KEYS = PROFILE.extraction.required_attribute_keys


@pytest.mark.parametrize("attributes, custom, expected", [
    ({"model": "A-100", "price": "8"}, {}, ("valid", "IMPORT_READY", None)),
    ({"product_name": "杯子", "color": "红"}, {}, ("valid", "IMPORT_READY", None)),
    ({"model": "A-100"}, {}, ("valid", "IMPORT_READY", "missing_specifications")),
    ({"product_name": "杯子", "size": "1L"}, {"功率": "20W"}, ("valid", "PENDING_CONFIRMATION", None)),
    ({"size": "1L", "price": "8"}, {}, ("invalid", "REJECTED", None)),
    ({}, {"功率": "20W"}, ("invalid", "REJECTED", None)),
])
def test_judge(attributes, custom, expected):
    assert judge(SkuAttributes(**attributes), custom) == expected


def draft(box, **attributes):
    d = SkuDraft(origin="card", boxes=[box])
    for name, value in attributes.items():
        d.set(name, value)
    return d


def test_every_required_key_is_present_and_null_filled():
    [sku] = records([draft((0, 0, 10, 10), model="A-100")], page=1, file_hash=HASH, confidence=0.9,
                    required_keys=KEYS)
    assert sku.attributes.model_dump() == {"model": "A-100", "product_name": None, "size": None, "material": None,
                                           "color": None, "price": None}
    assert sku.model_dump(mode="json")["attributes"]["price"] is None


def test_ids_follow_reading_order_top_band_then_left():
    drafts = [draft((300, 300, 400, 320), model="C-100"), draft((40, 304, 140, 320), model="B-100"),
              draft((300, 100, 400, 120), model="A-100"), draft((40, 500, 140, 520), model="D-100")]
    out = records(drafts, page=7, file_hash=HASH, confidence=0.85, required_keys=KEYS)
    assert [(s.sku_id, s.attributes.model) for s in out] == [
        ("feedbeef_p07_001", "A-100"), ("feedbeef_p07_002", "B-100"), ("feedbeef_p07_003", "C-100"),
        ("feedbeef_p07_004", "D-100")]
    assert {s.confidence for s in out} == {0.85}


def test_records_carry_source_bbox_origin_custom_attributes_and_the_variant_group():
    d = draft((10, 20, 30, 40), model="A-100", price="¥9")
    d.boxes.append((5, 30, 25, 60))
    d.custom["功率"] = "20W"
    d.source["price"] = "variant_card"
    d.variant_group = "t1"
    [sku] = records([d], page=2, file_hash=HASH, confidence=0.9, required_keys=KEYS)
    assert sku.source_bbox == (5, 20, 30, 60) and sku.origin == "card"
    assert (sku.status, sku.custom_attributes) == ("PENDING_CONFIRMATION", {"功率": "20W"})
    assert sku.attribute_source == {"price": "variant_card"} and sku.variant_group == "feedbeef_p02_t1"
    assert sku.attributes.price == "9"


def test_prices_are_stored_as_plain_decimals_and_an_unreadable_price_is_dropped():
    assert draft((0, 0, 1, 1), price="¥1,299").attributes == {"price": "1299"}
    assert draft((0, 0, 1, 1), price="面议").attributes == {}
