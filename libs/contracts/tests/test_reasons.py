"""Review reasons in words (issue 41): every kind of reason has a sentence in English and Chinese,
with its code kept beside it."""

import re

import pytest

from skuflow_contracts.reasons import CATEGORY_RULE, OTHER, WORDINGS, explain, explain_all, recognise

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("wording", [*WORDINGS, CATEGORY_RULE, OTHER], ids=lambda w: w.example)
def test_every_kind_of_reason_reads_as_a_sentence_in_english_and_chinese(wording):
    assert recognise(wording.example)[0] is wording  # its example is its own, not taken by an earlier wording
    words = explain(wording.example)
    assert words["code"] == wording.code
    assert not re.search(r"[{}]", words["en"] + words["zh"]), words
    assert words["en"][0].isupper() or words["en"][0].isdigit()
    assert CJK.search(words["zh"]) and not CJK.search(words["en"])


def test_the_issues_engineer_strings_read_as_sentences_with_their_codes_beside():
    words = explain_all(["unread_codes:107", "unread_prices:11"])
    assert "; ".join(w["en"] for w in words) == "107 product codes could not be read; 11 prices unreadable"
    assert "；".join(w["zh"] for w in words) == "107 个产品编码无法识别；11 个价格无法识别"
    assert [(w["code"], w["detail"]) for w in words] == [("unread_codes", "107"), ("unread_prices", "11")]


def test_a_list_of_sku_ids_is_counted_and_kept_as_the_detail():
    ids = ",".join(f"d7e3bd58_p02_{n:03d}" for n in range(1, 55))
    words = explain(f"duplicate_model_in_page:{ids}")
    assert words["en"] == "54 products share their model code with another on this page"
    assert words["detail"] == ids
    assert explain("low_confidence_skus:1")["en"] == "1 product read with low confidence"


def test_a_category_rule_and_anything_unknown_still_read_as_words():
    assert explain("price_range")["code"] == "category_rule"
    assert explain("a reason: nobody wrote yet")["code"] == "other"
