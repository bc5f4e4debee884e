"""The trace bundle's whitelist: what is shown as it is, what is masked, what is cut."""

from skuflow_contracts.redaction import MASK, MAX_TEXT, redact


def test_prices_are_masked_wherever_they_stand_and_whitelisted_fields_shown_as_they_are():
    sku = {"sku_id": "abcdef01_p02_001", "status": "IMPORT_READY", "confidence": 0.91,
           "attributes": {"model": "KX-100", "price": "128.00", "color": None},
           "raw_attributes": {"price": "¥128.00"}, "candidates": [{"price": "9.90", "probability": 0.2}]}
    assert redact(sku) == {"sku_id": "abcdef01_p02_001", "status": "IMPORT_READY", "confidence": 0.91,
                           "attributes": {"model": "KX-100", "price": MASK, "color": None},
                           "raw_attributes": {"price": MASK}, "candidates": [{"price": MASK, "probability": 0.2}]}


def test_phone_id_numbers_and_amounts_are_masked_in_other_text():
    text = ("call 13812345678 or +86 139 or (021) 62345678, ID 11010519491231002X, "
            "from ¥128.5 or 99元, code 6901234567892")
    assert redact({"product_name": text}) == {"product_name": (
        f"call {MASK} or +86 139 or {MASK}, ID {MASK}, from {MASK} or {MASK}, code 6901234567892")}


def test_a_long_text_is_cut_but_the_replay_inputs_and_ids_are_not():
    long = "x" * (MAX_TEXT + 50)
    assert redact({"evidence": long})["evidence"] == "x" * MAX_TEXT + "…"
    kept = {"previous_table": {"columns": [["price", 1.0, 2.0, "单价 ¥"]]}, "lessons": ["13812345678" * 3],
            "ir_sha256": "13812345678" + "0" * 53, "review_reasons": ["reader_confidence:0.50<0.80"]}
    assert redact(kept) == kept
