"""The per-page method ladder (seed-000 §8): table rule, two stage, single stage, final fallback."""

import pytest
from extractor_pages import HASH, HEADER, PROFILE, body_rows, classification, lines_of, page, stacked, table

from skuflow_contracts.ir import ImageRegion
from skuflow_extractor.domain import extraction
from skuflow_extractor.domain.drafts import SkuDraft
from skuflow_extractor.domain.extraction import extract_page, needs_previous_page
from skuflow_extractor.domain.words import upright_lines

PROSE = "新品 ZX-300 仅售 ¥59 欢迎选购"  # no card reads it: two stage finds nothing, single stage does


def extract(*blocks, page_type="B", previous=None, number=3, **kwargs):
    return extract_page(page(*blocks, number=number), classification(page_type, **kwargs), HASH, PROFILE, previous)


def test_an_a_page_is_read_by_table_rules():
    result = extract(*table(0, 100, [HEADER, *body_rows(1, 2)]), page_type="A")
    assert (result.method, result.fallback_reason, result.merged_from) == ("table_rule", None, None)
    assert [s.sku_id for s in result.skus] == ["feedbeef_p03_001", "feedbeef_p03_002"]
    assert all(0.8 < s.confidence <= 0.9 for s in result.skus)  # table rule's 0.9, scaled by each row's evidence
    assert [role for role, *_ in result.table.columns] == ["model", "product_name", "size", "price"]


def test_a_confident_d_page_is_skipped_but_a_low_confidence_one_is_read():
    card = stacked(0, 40, 300, "品名：杯子", "型号：X-100", "价格：¥9")
    assert extract(card, page_type="D") == extraction.Extraction(None, [])
    read = extract(card, page_type="D", needs_review=True)
    assert read.method == "two_stage" and [s.attributes.model for s in read.skus] == ["X-100"]


def test_a_failed_page_yields_nothing():
    failed = page(stacked(0, 40, 300, "型号：X-100"))
    failed = failed.model_copy(update={"status": "failed"})
    assert extract_page(failed, classification("C"), HASH, PROFILE).method is None


def test_an_a_page_without_a_table_goes_two_stage_with_table_rule_empty():
    result = extract(stacked(0, 40, 300, "品名：杯子", "型号：X-100", "价格：¥9"), page_type="A")
    assert (result.method, result.fallback_reason) == ("two_stage", "table_rule_empty")
    assert result.skus[0].confidence == 0.85


def test_b_and_c_pages_read_tables_and_cards_together_two_stage():
    blocks = [*table(0, 100, [HEADER, *body_rows(1, 1)]), stacked(10, 40, 400, "陶瓷杯", "型号：SF-0100", "价格：¥20")]
    result = extract(*blocks, page_type="B")
    assert (result.method, result.fallback_reason) == ("two_stage", None)
    assert [(s.attributes.model, s.origin) for s in result.skus] == [("SF-0001", "table_row"), ("SF-0100", "card")]


def test_header_and_footer_blocks_are_not_products():
    blocks = [stacked(0, 40, 10, "型号：SF-0001", "价格：¥1"), stacked(1, 40, 300, "型号：SF-0002", "价格：¥2")]
    result = extract(*blocks, page_type="C", roles={0: "header", 1: "product_block"})
    assert [s.attributes.model for s in result.skus] == ["SF-0002"]


def test_two_stage_empty_falls_back_to_single_stage():
    result = extract(stacked(0, 40, 300, PROSE))
    assert (result.method, result.fallback_reason) == ("single_stage", "two_stage_empty")
    [sku] = result.skus
    assert (sku.attributes.model, sku.attributes.price, sku.confidence, sku.origin) == ("ZX-300", "59", 0.6, "line")


def test_an_a_page_that_no_rule_reads_ends_in_single_stage_after_both_fallbacks():
    result = extract(stacked(0, 40, 300, PROSE), page_type="A")
    assert (result.method, result.fallback_reason) == ("single_stage", "two_stage_empty")


def test_too_many_invalid_two_stage_skus_fall_back_to_single_stage(monkeypatch):
    named = SkuDraft(origin="card", attributes={"model": "ZX-300"}, boxes=[(40, 300, 100, 312)])
    nameless = [SkuDraft(origin="card", attributes={"price": "1"}, boxes=[(40, 400, 100, 412)])]
    monkeypatch.setattr(extraction, "extract_cards", lambda lines: [named, *nameless])  # 1 of 2 invalid
    result = extract(stacked(0, 40, 300, PROSE))
    assert (result.method, result.fallback_reason) == ("single_stage", "invalid_ratio=0.50")


def test_an_invalid_ratio_at_the_threshold_is_kept(monkeypatch):
    named = [SkuDraft(origin="card", attributes={"model": f"ZX-{n}00"}, boxes=[(40, 100 + 20 * n, 100, 112 + 20 * n)])
             for n in range(1, 8)]
    nameless = [SkuDraft(origin="card", attributes={"price": "1"}, boxes=[(40, 400, 100, 412)])] * 3
    monkeypatch.setattr(extraction, "extract_cards", lambda lines: [*named, *nameless])  # 3 of 10: not above 0.3
    result = extract(stacked(0, 40, 300, PROSE))
    assert (result.method, result.fallback_reason) == ("two_stage", None)
    assert [s.validity for s in result.skus].count("invalid") == 3


def test_an_exception_in_two_stage_falls_back_to_single_stage_with_its_type(monkeypatch):
    def broken(lines):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(extraction, "extract_cards", broken)
    result = extract(stacked(0, 40, 300, "品名：杯子", "型号：X-100", "价格：¥9"))
    assert (result.method, result.fallback_reason) == ("single_stage", "exception:ZeroDivisionError")
    assert [s.attributes.model for s in result.skus] == ["X-100"]


def test_when_every_stage_fails_the_page_gets_the_final_fallback(monkeypatch):
    def broken(lines):
        raise KeyError("boom")

    monkeypatch.setattr(extraction, "extract_cards", broken)
    monkeypatch.setattr(extraction, "extract_lines", broken)
    result = extract(stacked(0, 40, 300, PROSE))
    assert (result.method, result.skus, result.fallback_reason) == ("final_fallback", [], "all_extraction_failed")


@pytest.mark.parametrize("page_type", ["A", "B", "C"])
def test_a_page_with_nothing_to_read_gets_the_final_fallback(page_type):
    result = extract(stacked(0, 40, 300, "欢迎选购"), page_type=page_type)
    assert (result.method, result.skus, result.fallback_reason) == ("final_fallback", [], "all_extraction_failed")


def test_a_continuation_page_reads_its_rows_with_the_previous_pages_header():
    previous = extract(*table(0, 100, [HEADER, *body_rows(1, 2)]), page_type="A", number=2).table
    result = extract(*table(0, 60, body_rows(3, 2)), page_type="A", previous=previous)
    assert (result.method, result.merged_from, result.table) == ("table_rule", 2, previous)
    assert [(s.sku_id, s.attributes.model, s.attributes.size) for s in result.skus] == [
        ("feedbeef_p03_001", "SF-0003", "300ml"), ("feedbeef_p03_002", "SF-0004", "400ml")]


def test_the_table_passed_on_is_the_lowest_table_of_the_page():
    second = [["型号", "颜色", "价格"], ["SF-0009", "红", "¥9"]]
    result = extract(*table(0, 100, [HEADER, *body_rows(1, 1)]), *table(10, 400, second, xs=(50, 140, 290)),
                     page_type="A")
    assert [role for role, *_ in result.table.columns] == ["model", "color", "price"]


def test_a_page_without_tables_passes_no_header_on():
    assert extract(stacked(0, 40, 300, "型号：X-100", "价格：¥9"), page_type="C").table is None


def test_a_headerless_table_read_on_its_own_keeps_one_sku_per_row():
    result = extract(*table(0, 60, body_rows(3, 3)), page_type="A")
    assert [s.attributes.model for s in result.skus] == ["SF-0003", "SF-0004", "SF-0005"]


@pytest.mark.parametrize("number, page_type, blocks, waits", [
    (3, "A", table(0, 60, body_rows(3, 2)), True),
    (3, "B", table(0, 60, body_rows(3, 2)), True),
    (1, "A", table(0, 60, body_rows(3, 2)), False),  # the first page continues nothing
    (3, "C", table(0, 60, body_rows(3, 2)), False),
    (3, "A", table(0, 60, [HEADER, *body_rows(3, 2)]), False),
    (3, "C", [stacked(0, 40, 60, "型号：X-100", "价格：¥9")], False),
])
def test_needs_previous_page(number, page_type, blocks, waits):
    parsed = page(*blocks, number=number)
    assert needs_previous_page(parsed, classification(page_type), PROFILE, upright_lines(parsed).lines) is waits


def test_margin_rows_do_not_make_a_page_wait():
    rows = table(0, 10, body_rows(3, 1))  # a running header printed like a row
    body = stacked(9, 40, 300, "型号：X-100", "价格：¥9")
    roles = {block.block_id: "header" for block in rows}
    lines = upright_lines(page(*rows, body)).lines
    assert not needs_previous_page(page(*rows, body), classification("A", roles), PROFILE, lines)
    assert needs_previous_page(page(*rows, body), classification("A"), PROFILE, lines)


def ocr_page_of(*blocks, confidence):
    """The same page as read by OCR with the given recognition confidence."""
    return page(*[b.model_copy(update={"confidence": confidence}) for b in blocks]).model_copy(
        update={"parser_backend": "ocr"})


def test_an_skus_confidence_follows_its_evidence_and_weak_ones_are_a_reason_for_review():
    rows = table(0, 100, [HEADER, *body_rows(1, 3)])
    clean = extract_page(ocr_page_of(*rows, confidence=0.98), classification("A"), HASH, PROFILE)
    blurred = extract_page(ocr_page_of(*rows, confidence=0.6), classification("A"), HASH, PROFILE)
    assert min(s.confidence for s in clean.skus) > max(s.confidence for s in blurred.skus)
    assert clean.review_reasons == [] and blurred.review_reasons == ["low_confidence_skus:3"]


def test_codes_printed_on_the_page_that_became_no_sku_are_a_reason_for_review():
    loose = stacked(20, 40, 500, "AB-1001", "AB-1002", "AB-1003", leading=40)  # codes the table does not hold
    result = extract(*table(0, 100, [HEADER, *body_rows(1, 2)]), loose, page_type="A")
    assert [s.attributes.model for s in result.skus] == ["SF-0001", "SF-0002"]
    assert result.review_reasons == ["unread_codes:3"]


def test_a_page_read_to_nothing_says_why():
    assert extract(stacked(0, 40, 300, "欢迎选购"), page_type="A").review_reasons == ["nothing_read:unread_codes=0"]


def test_a_table_whose_header_sits_in_the_top_margin_band_is_still_read():
    rows = table(0, 10, [HEADER, *body_rows(1, 3)])  # a tightly cropped page: the header in the margin
    result = extract(*rows, page_type="A", roles={rows[0].block_id: "header"})
    assert [s.attributes.model for s in result.skus] == ["SF-0001", "SF-0002", "SF-0003"]


def test_a_grid_of_photos_named_only_by_their_captions_gives_one_product_per_photo():
    names = ["Ananas", "Mangue", "Mojito", "Litchi"]
    photos = [ImageRegion(image_id=f"img_{n}", bbox=(40 + 180 * (n % 3), 100 + 230 * (n // 3),
                                                     190 + 180 * (n % 3), 250 + 230 * (n // 3)),
                          width_px=600, height_px=600, content_hash=f"h{n}") for n in range(4)]
    captions = [stacked(n, 40 + 180 * (n % 3), 254 + 230 * (n // 3), name, "Poche 150g")
                for n, name in enumerate(names)]
    grid = page(*captions).model_copy(update={"images": photos})
    cls = classification("C").model_copy(update={"image_roles": {p.image_id: "PRODUCT_MAIN" for p in photos}})
    result = extract_page(grid, cls, HASH, PROFILE)
    assert [s.attributes.product_name for s in result.skus] == names
    assert all(s.confidence < PROFILE.extraction.sku_min_confidence for s in result.skus)  # a person confirms


def test_prices_printed_on_the_page_that_became_no_sku_are_a_reason_for_review():
    """A second list's names and prices that no SKU was read from: three of them make the page doubtful,
    a price inside an SKU's box does not count."""
    result = extract(*table(0, 100, [HEADER, *body_rows(1, 2)]), page_type="A")
    priced = [stacked(20 + n, 330, 500 + 30 * n, f"Kofola originál 0,{n + 3} l   1,{n}0€") for n in range(3)]
    unread = lines_of(*priced)
    read = lines_of(*table(0, 100, [HEADER, *body_rows(1, 2)]))
    assert extraction.unread_prices(read, result.skus) == 0  # '¥1.50' in each SKU's own row
    assert extraction.unread_prices(read + unread, result.skus) == 3
    assert extraction.doubts(result.skus, read + unread, 0.5) == ["unread_prices:3"]


def test_an_amount_in_the_price_column_that_reads_as_no_price_is_a_reason_for_review():
    rows = [HEADER, ["SF-0001", "玻璃杯", "100ml", "¥1.50"], ["SF-0002", "玻璃杯", "200ml", "3.400,00 b"],
            ["SF-0003", "玻璃杯", "300ml", "面议"]]  # 'on request' prints no amount: no doubt
    result = extract(*table(0, 100, rows), page_type="A")
    assert [(s.attributes.model, s.attributes.price, s.raw_attributes.get("price")) for s in result.skus] == [
        ("SF-0001", "1.50", "¥1.50"), ("SF-0002", None, "3.400,00 b"), ("SF-0003", None, None)]
    assert result.review_reasons == ["unreadable_prices:1"]
