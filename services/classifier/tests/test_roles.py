"""Text-block roles and image roles (logo, decoration, product picture, detail) from geometry and text."""

import pytest
from classifier_pages import PROFILE, image, page, price_table, row, stacked

from skuflow_classifier.domain.classification import block_role, classify_page, image_role

T = PROFILE.classification


@pytest.mark.parametrize("text, box, role", [
    ("型号：SF-0001", (50, 20, 250, 32), "header"),  # inside the top margin (8 % of 842 pt)
    ("第 3 页 ¥9", (50, 800, 250, 812), "footer"),
    ("品名：杯子\n型号：SF-0001", (50, 300, 250, 330), "product_block"),
    ("型号\n品名\n价格", (50, 300, 450, 312), "table_header"),
    ("SF-0001\n玻璃杯\n¥8.00", (50, 300, 450, 312), "table_row"),
    ("特价 ¥99 起", (50, 300, 250, 312), "price"),
    ("品质生活，从这里开始", (50, 300, 250, 312), "marketing"),
])
def test_block_roles(text, box, role):
    assert block_role(text, box, page(), T) == role


def test_classify_page_labels_every_block():
    blocks = price_table(rows=2)
    roles = classify_page(page(blocks), PROFILE).block_roles
    assert roles == {0: "table_header", 1: "table_row", 2: "table_row"}


@pytest.mark.parametrize("box", [(30, 10, 130, 50), (460, 790, 560, 830)])
def test_a_small_picture_in_the_top_or_bottom_margin_is_a_logo(box):
    assert image_role(image(0, box), page(), T) == "LOGO"


def test_a_large_picture_reaching_into_the_margin_is_not_a_logo():
    assert image_role(image(0, (0, 0, 595, 60)), page(), T) == "PRODUCT_MAIN"  # 6 % of the page


def test_a_small_unanchored_picture_is_decoration_but_a_small_one_next_to_product_text_is_a_product():
    small = image(0, (300, 400, 340, 440))  # 0.3 % of the page
    assert image_role(small, page(), T) == "DECORATION"
    assert image_role(small, page(), T, anchors=[(350, 400, 500, 412)]) == "PRODUCT_MAIN"
    assert image_role(small, page(), T, anchors=[(50, 700, 200, 712)]) == "DECORATION"  # too far


def test_a_large_picture_is_a_product_even_without_text():
    assert image_role(image(0, (100, 200, 400, 500)), page(), T) == "PRODUCT_MAIN"


def test_classify_page_anchors_small_pictures_to_model_codes_prices_and_labelled_lines():
    images = [image(0, (50, 300, 90, 340)), image(1, (50, 500, 90, 540)), image(2, (300, 650, 340, 690))]
    blocks = [stacked(0, 100, 310, "SF-0001"), stacked(1, 100, 510, "价格：¥9")]
    roles = classify_page(page(blocks, images), PROFILE).image_roles
    assert roles == {"img_0": "PRODUCT_MAIN", "img_1": "PRODUCT_MAIN", "img_2": "DECORATION"}


def test_a_small_picture_beside_a_bigger_product_picture_is_its_detail():
    main, detail, elsewhere = (image(0, (50, 100, 300, 350)), image(1, (310, 120, 400, 210)),
                               image(2, (310, 500, 400, 590)))
    card = stacked(0, 50, 360, "品名：杯子", "型号：SF-0001", "价格：¥9")
    roles = classify_page(page([card], [main, detail, elsewhere]), PROFILE).image_roles
    assert roles["img_0"] == "PRODUCT_MAIN" and roles["img_1"] == "DETAIL"
    assert roles["img_2"] == "PRODUCT_MAIN"  # below the product picture's height band: not its detail


def test_two_product_pictures_of_similar_size_are_not_details_of_each_other():
    images = [image(0, (50, 100, 250, 300)), image(1, (300, 100, 480, 280))]
    roles = classify_page(page([row(0, 320, ["SF-0001", "¥9"])], images), PROFILE).image_roles
    assert set(roles.values()) == {"PRODUCT_MAIN"}


def test_a_picture_filling_the_page_is_its_scan_not_a_product():
    scan = image(0, (0, 0, 595, 842))
    card = stacked(1, 150, 100, "型号：SF-0100", "价格：¥59")
    assert classify_page(page([card], [scan]), PROFILE).image_roles == {scan.image_id: "SCENE"}


def test_a_thumbnail_is_a_product_picture_when_its_table_row_names_a_product_far_to_its_right():
    thumb = image(0, (43, 127, 71, 155), px=60)
    far_code = row(1, 134, ["保温杯", "KB-26316", "68.00"], xs=(94, 230, 420))
    assert classify_page(page([far_code], [thumb]), PROFILE).image_roles[thumb.image_id] == "PRODUCT_MAIN"
    assert classify_page(page([row(1, 300, ["保温杯", "KB-26316"], xs=(94, 230))], [thumb]),
                         PROFILE).image_roles[thumb.image_id] == "DECORATION"


def test_a_margin_band_crowded_with_a_tables_cells_is_content_not_a_running_header():
    header_band = [stacked(i, 40 + 70 * i, 10, text) for i, text in enumerate(
        ["Style", "Name", "ABV", "Take Out", "Drink In", "Harviestoun", "Schiehallion"])]
    roles = classify_page(page([*header_band, stacked(9, 40, 400, "body text")]), PROFILE).block_roles
    assert "header" not in roles.values()
    running = classify_page(page([stacked(0, 40, 10, "ACME Catalogue 2026"), stacked(1, 40, 400, "x")]),
                            PROFILE).block_roles
    assert running[0] == "header"
