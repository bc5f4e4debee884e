"""Page type (A/B/C/D), confidence and review, layout and the recorded detail, on hand-built IR pages."""

import pytest
from classifier_pages import PROFILE, image, page, price_table, product_grid, row, stacked

from skuflow_classifier.domain.classification import classify_page
from skuflow_contracts.profile import ClassificationThresholds, ThresholdProfile


def test_a_grid_of_pictured_products_is_type_c_layout_l2():
    result = classify_page(product_grid(), PROFILE)
    assert (result.page_type, result.page_type_confidence, result.layout) == ("C", 0.85, "L2")
    assert not result.needs_review
    assert set(result.block_roles.values()) == {"product_block"}
    assert set(result.image_roles.values()) == {"PRODUCT_MAIN"}


def test_a_price_table_without_pictures_is_type_a_layout_l1():
    result = classify_page(page(price_table()), PROFILE)
    assert (result.page_type, result.page_type_confidence, result.layout) == ("A", 0.9, "L1")
    assert result.reason == "table rows, no product pictures"


def test_a_table_of_tightly_packed_rows_is_dense_layout_l4_however_long():
    dense = classify_page(page(price_table(rows=6, pitch=17)), PROFILE)
    assert (dense.page_type, dense.layout, dense.detail["features"]["row_pitch"]) == ("A", "L4", 1.7)
    assert classify_page(page(price_table(rows=30, pitch=21)), PROFILE).layout == "L1"


def test_picture_columns_at_the_same_heights_are_a_grid_and_staggered_ones_two_columns():
    grid = [image(i, (50 + 250 * (i % 2), 100 + 250 * (i // 2), 250 + 250 * (i % 2), 300 + 250 * (i // 2)))
            for i in range(4)]
    staggered = [image(i, (50 + 250 * (i % 2), 100 + 250 * (i // 2) + 90 * (i % 2),
                           250 + 250 * (i % 2), 300 + 250 * (i // 2) + 90 * (i % 2))) for i in range(4)]
    cards = [stacked(10 + i, 50 + 250 * (i % 2), 310 + 250 * (i // 2) + 90 * (i % 2), "型号：SF-0100", "价格：¥59")
             for i in range(4)]
    assert classify_page(page(cards, grid), PROFILE).layout == "L2"
    assert classify_page(page(cards, staggered), PROFILE).layout == "L3"


def test_several_model_codes_without_structure_are_type_a_with_lower_confidence():
    blocks = [stacked(i, 50, 100 + 40 * i, f"SF-{i:04d} ¥8") for i in range(3)]
    result = classify_page(page(blocks), PROFILE)
    assert (result.page_type, result.page_type_confidence) == ("A", 0.75)
    assert result.reason == "several model codes without pictures"


def test_marketing_prose_product_blocks_and_a_table_make_type_b():
    prose = stacked(0, 50, 90, "本系列产品采用优质材料精心打造，适合家庭、办公室和户外等多种场合使用。", width=500)
    card = stacked(1, 50, 130, "品名：保温杯", "型号：SF-0100", "价格：¥59")
    table = [row(10 + i, 300 + 26 * i, cells) for i, cells in enumerate(
        [["型号", "品名", "规格", "价格"], ["SF-0001", "玻璃杯", "300ml", "¥8.00"]])]
    result = classify_page(page([prose, card, *table]), PROFILE)
    assert (result.page_type, result.page_type_confidence) == ("B", 0.85)
    assert result.detail["features"]["prose_lines"] == 1


def test_far_more_products_than_pictures_is_type_b():
    cards = [stacked(i, 300, 100 + 60 * i, f"型号：SF-{i:04d}", "价格：¥9") for i in range(6)]
    result = classify_page(page(cards, [image(0, (40, 100, 260, 320))]), PROFILE)
    assert (result.page_type, result.page_type_confidence) == ("B", 0.7)
    assert result.reason == "far more products than pictures"


def test_product_blocks_without_pictures_are_type_c_a_scan():
    cards = [stacked(i, 50, 100 + 80 * i, "品名：杯子", f"型号：SF-{i:04d}") for i in range(2)]
    result = classify_page(page(cards), PROFILE)
    assert (result.page_type, result.page_type_confidence, result.needs_review) == ("C", 0.72, False)


def test_product_text_without_structure_is_low_confidence_b_and_goes_to_review():
    result = classify_page(page([row(0, 300, ["SF-0001", "杯子", "300ml"])]), PROFILE)
    assert (result.page_type, result.page_type_confidence) == ("B", 0.6)
    assert result.needs_review


@pytest.mark.parametrize("blocks, images, confidence, reason", [
    ([], [], 0.95, "blank page"),
    ([stacked(0, 60, 280, "2026 春季产品目录", size=28)], [], 0.8, "no model codes or prices"),
    ([stacked(0, 60, 300, "新品 SF-0001 现已上市，欢迎垂询")], [], 0.7, "products mentioned in prose only"),
])
def test_pages_without_products_are_type_d_with_enough_confidence_to_skip(blocks, images, confidence, reason):
    result = classify_page(page(blocks, images), PROFILE)
    assert (result.page_type, result.page_type_confidence, result.reason) == ("D", confidence, reason)
    assert result.layout is None and not result.needs_review


def test_a_low_confidence_d_page_is_flagged_for_review_not_skipped():
    result = classify_page(page(images=[image(0, (50, 100, 545, 700))]), PROFILE)
    assert (result.page_type, result.page_type_confidence) == ("D", 0.6)
    assert result.needs_review


def test_the_review_threshold_comes_from_the_profile():
    strict = ThresholdProfile(version="strict", classification=ClassificationThresholds(page_type_min_confidence=0.9))
    result = classify_page(product_grid(), strict)
    assert result.page_type_confidence == 0.85 and result.needs_review
    assert result.detail["thresholds"]["page_type_min_confidence"] == 0.9


def test_the_detail_records_features_rule_confidence_and_thresholds():
    result = classify_page(product_grid(), PROFILE)
    detail = result.detail
    assert detail["rule"] == result.reason and detail["confidence"] == result.page_type_confidence
    assert detail["features"]["product_images"] == 4 and detail["features"]["labelled_lines"] == 12
    assert detail["features"]["image_columns"] == 2
    assert detail["thresholds"] == {"page_type_min_confidence": 0.7, "decoration_area_share": 0.01,
                                    "margin_share": 0.08}


@pytest.mark.parametrize("xs, layout", [((40,), "L1"), ((40, 305), "L3")])
def test_one_column_of_pictures_is_l1_two_columns_of_few_pictures_is_l3(xs, layout):
    images = [image(i, (x, 100, x + 220, 320)) for i, x in enumerate(xs)]
    cards = [stacked(i, x, 330, "品名：杯子", f"型号：SF-{i:04d}", "价格：¥9") for i, x in enumerate(xs)]
    result = classify_page(page(cards, images), PROFILE)
    assert (result.page_type, result.layout) == ("C", layout)


def test_pictures_lower_than_40pt_are_thumbnails_not_product_pictures():
    thumbs = [image(i, (50, 100 + 40 * i, 80, 130 + 40 * i)) for i in range(3)]
    cards = [stacked(i, 90, 100 + 40 * i, f"型号：SF-{i:04d}", "价格：¥9") for i in range(3)]
    features = classify_page(page(cards, thumbs), PROFILE).detail["features"]
    assert (features["thumbnails"], features["product_images"]) == (3, 0)


def test_a_page_with_prices_but_no_codes_is_a_product_page_never_d():
    lines = stacked(1, 50, 100, "ABACAXI CRISTALIZADO  R$ 45,00", "AÇAFRÃO (CÚRCUMA)  R$ 7,33",
                    "FEIJÃO PRETO  R$ 6,11", "AMENDOIM  R$ 12,50", width=400)
    result = classify_page(page([lines]), PROFILE)
    assert result.page_type != "D" and result.detail["features"]["price_mentions"] >= 3


def test_a_scan_read_poorly_is_not_skipped_as_blank():
    blurred = page([stacked(1, 50, 100, "lorem")], [image(1, (0, 0, 595, 842))]).model_copy(
        update={"parser_backend": "ocr", "ocr_confidence": 0.55})
    result = classify_page(blurred, PROFILE)
    assert (result.page_type, result.needs_review, result.reason) == ("D", True, "scan with little readable text")


def test_a_cover_without_product_signal_stays_a_confident_d():
    result = classify_page(page([stacked(1, 50, 100, "2024 Catalogue", "Kitchen and home", "www.example.com")]),
                           PROFILE)
    assert (result.page_type, result.needs_review) == ("D", False)


def test_a_price_list_title_over_amounts_makes_a_product_page_even_without_codes_or_marked_prices():
    listed = page([stacked(1, 50, 100, "PRICE LIST", "(PER KILO)", "WHOLE", "240", "LEG", "250", "WINGS", "180")])
    result = classify_page(listed, PROFILE)
    assert result.page_type != "D" and result.detail["features"]["price_list_title"]
    cover = page([stacked(1, 50, 100, "CLOUD GOODS", "2026 Dealer Price List", "Tel: +86 579 8512 3366")])
    assert classify_page(cover, PROFILE).page_type == "D"


def test_a_scan_of_short_texts_without_codes_goes_to_review_not_to_d_skipped():
    captions = [stacked(i, 50 + 150 * (i % 3), 100 + 200 * (i // 3), name, "2/3/5 Ltr.")
                for i, name in enumerate(["Straight Fry Pan", "Deep Kadai", "Tawa", "Cook & Serve", "Tadka Pan",
                                          "Kadai", "Sauce Pan", "Dosa Tawa", "Idli Cooker", "Milk Pan"])]
    scan = page(captions, [image(9, (0, 0, 595, 842))]).model_copy(
        update={"parser_backend": "ocr", "ocr_confidence": 0.95})
    result = classify_page(scan, PROFILE)
    assert (result.page_type, result.needs_review) == ("D", True)
    assert result.reason == "scan of short texts without codes or prices"


def test_a_grid_of_captioned_pictures_without_codes_or_prices_lists_products_never_d():
    names = ["Ananas", "Mangue", "Mojito", "Noix de coco", "Litchi", "Banane"]
    pictures = [image(n, (40 + 180 * (n % 3), 100 + 230 * (n // 3), 190 + 180 * (n % 3), 250 + 230 * (n // 3)))
                for n in range(6)]
    captions = [stacked(n, 40 + 180 * (n % 3), 254 + 230 * (n // 3), name, "Poche 150g", width=100)
                for n, name in enumerate(names)]
    result = classify_page(page(captions, pictures), PROFILE)
    assert (result.page_type, result.detail["features"]["captioned_pictures"]) == ("C", 6)
    lone = classify_page(page(captions[:1], pictures[:1]), PROFILE)
    assert lone.page_type == "D"  # one photo with a caption is a figure


def test_product_pictures_beside_text_without_codes_or_prices_go_to_review_not_skipped():
    """A catalogue's blocks: a name in large type, a paragraph about it, its pack photo; no code, no price."""
    pictures = [image(n, (300, 60 + 190 * n, 520, 230 + 190 * n)) for n in range(4)]
    blocks = [stacked(n, 40, 60 + 190 * n, "HIDRAPET CHAMPÚ", "Limpia e hidrata la piel y el pelo de perros",
                      "y gatos, tiene un pH equilibrado.", width=240) for n in range(4)]
    result = classify_page(page(blocks, pictures), PROFILE)
    assert (result.page_type, result.needs_review) == ("D", True)
    assert not classify_page(page(blocks, pictures[:2]), PROFILE).needs_review  # a leaflet's two photos


def test_a_menu_pricing_its_dishes_after_dot_leaders_is_a_product_page():
    menu = page([stacked(1, 50, 100, "Mit süß-saurer Soße ........ 16,90", "Mit Erdnusssoße ........ 16,90",
                         "In rotem Curry (scharf) ........ 16,90", width=400)])
    result = classify_page(menu, PROFILE)
    assert result.page_type != "D" and result.detail["features"]["leadered_prices"] == 3
    contents = page([stacked(1, 50, 100, "Einleitung", "Vorspeisen", "Hauptgerichte", width=400)])
    assert classify_page(contents, PROFILE).page_type == "D"


def test_a_menu_printing_its_prices_per_size_between_bars_is_a_product_page():
    ladders = ["4,50| 7,00|13,00| 16,00", "3,00| 5,00|10,00| 14,00", "6,00| 8,00|15,00| 18,00"]
    menu = page([row(n, 100 + 20 * n, ["PIZZA", ladder]) for n, ladder in enumerate(ladders)])
    result = classify_page(menu, PROFILE)
    assert result.page_type != "D" and result.detail["features"]["price_cells"] == 3


def test_a_lone_table_row_without_header_codes_or_prices_is_not_skipped_unseen():
    """The last row of a price list, run onto a page of its own ('14 | Поддерживающие ролики | 9 | 10000')."""
    carried = page([row(1, 100, ["14", "Поддерживающие ролики стрелы", "9", "10000"])])
    result = classify_page(carried, PROFILE)
    assert (result.page_type, result.needs_review) == ("D", True)
    assert result.detail["features"]["amount_rows"] == 1


def test_a_list_set_in_columns_with_spaces_but_no_codes_or_prices_goes_to_review_not_skipped():
    """A nursery's varieties ('BELIANA      fruit petit, parfumé      FIN JUIN'): products named only."""
    varieties = ["BELIANA", "COROT", "CANINO", "JANTARNI", "BLANC PRECOCE", "NJ19", "ROUGET DE SERNHAC", "KORDIA"]
    listed = page([stacked(n, 50, 100 + 20 * n, f"{name}          fruit doré, parfumé          FIN JUIN")
                   for n, name in enumerate(varieties)])
    result = classify_page(listed, PROFILE)
    assert (result.page_type, result.needs_review) == ("D", True)
    prose = page([stacked(n, 50, 100 + 20 * n, f"{name} fruit doré, parfumé, mûr fin juin")
                  for n, name in enumerate(varieties)])
    assert not classify_page(prose, PROFILE).needs_review
