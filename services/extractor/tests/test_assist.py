"""A model's SKUs replace the rules' reading only when they are valid enough and no fewer."""

from skuflow_contracts.ir import ParsedPage, TextBlock
from skuflow_contracts.profile import profile_for
from skuflow_contracts.results import PageClassification
from skuflow_extractor.domain.assist import adopt, wants_model
from skuflow_extractor.domain.extraction import Extraction
from skuflow_llm import SKUAttrResult

PROFILE = profile_for("v1")
HASH = "ab" * 32
PAGE = ParsedPage(page=3, width=595, height=842, parser_backend="ocr", text_blocks=[
    TextBlock(block_id=0, bbox=(50, 100, 300, 112), text="KX 60/8 S  Kettle  ¥129"),
    TextBlock(block_id=1, bbox=(50, 130, 300, 142), text="KX 70/9 S  Kettle XL  ¥159")])
NOTHING = Extraction("final_fallback", [], "all_extraction_failed", review_reasons=["nothing_read:no_text"])
C_PAGE = PageClassification(page_type="C", page_type_confidence=0.9, layout=None)


def answer(*items: dict) -> SKUAttrResult:
    return SKUAttrResult(skus=list(items))


def test_the_model_is_asked_only_where_the_rules_are_unsure():
    assert wants_model(NOTHING, C_PAGE)
    sure = Extraction("two_stage", [], None)
    assert not wants_model(sure, C_PAGE) and wants_model(sure, C_PAGE, "evaluation: page score 0.1 < PV 0.60")
    assert not wants_model(Extraction(None, []), C_PAGE, "evaluation: …")


def test_a_page_the_rules_could_not_read_takes_the_models_skus_placed_on_their_lines():
    read = adopt(NOTHING, answer({"model": "KX 60/8 S", "product_name": "Kettle", "price": "¥129"},
                                 {"model": "KX 70/9 S", "product_name": "Kettle XL", "price": "¥159"}),
                 "two_stage", "qwen", PAGE, HASH, PROFILE, flagged=False)
    assert read.method == "two_stage" and read.fallback_reason == "llm:qwen after all_extraction_failed"
    assert [s.attributes.model for s in read.skus] == ["KX 60/8 S", "KX 70/9 S"]
    assert read.skus[0].attributes.price == "129" and read.skus[0].source_bbox == (50, 100, 300, 112)
    assert read.review_reasons == []


def test_a_poor_or_flagged_answer_leaves_the_rules_reading_with_why():
    junk = adopt(NOTHING, answer({"size": "1L"}, {"color": "red"}), "two_stage", "qwen", PAGE, HASH, PROFILE, False)
    assert junk.method == "final_fallback" and junk.review_reasons[-1] == "llm qwen: nothing read"
    flagged = adopt(NOTHING, answer({"model": "KX 60/8 S", "price": "1"}), "single_stage", "qwen", PAGE, HASH,
                    PROFILE, flagged=True)
    assert flagged.skus and "llm_answer_flagged:qwen" in flagged.review_reasons


def test_the_model_may_read_fewer_skus_than_the_reader_only_by_those_the_reader_is_unsure_of():
    model = answer({"model": "KX 60/8 S", "product_name": "Kettle", "price": "¥129"},
                   {"model": "KX 70/9 S", "product_name": "Kettle XL", "price": "¥159"})
    read_by_model = adopt(NOTHING, model, "two_stage", "qwen", PAGE, HASH, PROFILE, flagged=False)
    unsure = PROFILE.extraction.sku_min_confidence / 2
    third = read_by_model.skus[0].model_copy(update={"sku_id": "x", "confidence": unsure})
    reader = Extraction("two_stage", [*read_by_model.skus, third], None, review_reasons=["low_confidence_skus:1"])
    assert adopt(reader, model, "two_stage", "qwen", PAGE, HASH, PROFILE, False).fallback_reason == "llm:qwen"
    sure = Extraction("two_stage", [*read_by_model.skus, third.model_copy(update={"confidence": 0.99})], None)
    kept = adopt(sure, model, "two_stage", "qwen", PAGE, HASH, PROFILE, False)
    assert kept.skus == sure.skus and kept.review_reasons[-1] == "llm qwen: fewer SKUs than the rules"
