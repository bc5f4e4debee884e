"""Catalog vocabulary: header and label synonyms (Chinese, English, bilingual), prices, model codes."""

import pytest

from skuflow_contracts.vocabulary import MODEL_CODE, attribute_for_label, labelled_value, parse_price


@pytest.mark.parametrize("label, attribute", [
    ("型号", "model"), ("货号", "model"), ("Item No.", "model"), ("Model No.:", "model"), ("SKU", "model"),
    ("型号/Model", "model"), ("Size/尺寸", "size"), ("颜色 / Colour", "color"),
    ("品名", "product_name"), ("Description", "product_name"),
    ("规格", "size"), ("材质", "material"), ("Unit Price (USD)", "price"), ("单价（元）", "price"),
    ("价格", "price"), ("图片", "picture"), ("Photo", "picture"),
])
def test_labels_and_headers_map_to_attributes(label, attribute):
    assert attribute_for_label(label) == attribute


@pytest.mark.parametrize("label", ["foo", "foo/bar", "功率", "", "Unit (USD)"])
def test_unknown_labels_map_to_nothing(label):
    assert attribute_for_label(label) is None


def test_labelled_values_need_a_known_label_and_a_colon():
    assert labelled_value("型号：A-100") == ("model", "A-100")
    assert labelled_value("Price: $12.50") == ("price", "$12.50")
    assert labelled_value(" 颜色 ： 透明 ") == ("color", "透明")
    assert labelled_value("功率：20W") is None  # custom label: the extractor keeps it as a custom attribute
    assert labelled_value("图片：front.jpg") is None  # a picture column is not an attribute
    assert labelled_value("型号 A-100") is None


@pytest.mark.parametrize("text, price", [
    ("¥1,299", "1299"), ("￥12.50", "12.50"), ("US$ 12.50", "12.50"), ("$4.5", "4.5"), ("35元", "35"),
    ("RMB 8", "8"), ("1,234,567.89 USD", "1234567.89"), ("12.5", "12.5"), (" 80 ", "80"),
    ("特价 ¥99 起", "99"),
])
def test_prices_are_plain_decimals(text, price):
    assert parse_price(text) == price


@pytest.mark.parametrize("text", ["free", "12.345", "300ml", "", "SF-0001"])
def test_text_without_a_price_has_none(text):
    assert parse_price(text) is None


@pytest.mark.parametrize("text, codes", [
    ("DB.392", ["DB.392"]), ("CB-26551-PK", ["CB-26551-PK"]), ("CB-26551-PK Pink", ["CB-26551-PK"]),
    ("SF-0001", ["SF-0001"]), ("AB120", ["AB120"]), ("型号 SF_1234 颜色", ["SF_1234"]),
    ("abc-123", []), ("X-1", []), ("ABCDEF-123", []), ("2026", []),
])
def test_model_codes(text, codes):
    assert MODEL_CODE.findall(text) == codes
