"""Two-stage card reading (stacks, boundaries, attributes) and the single-stage line reader."""

import pytest
from extractor_pages import block, lines_of, spanned, stacked

from skuflow_extractor.domain.cards import boundaries, extract_cards, extract_lines, read_card, stacks
from skuflow_extractor.domain.drafts import SkuDraft


def texts(groups):
    return [[ln.text for ln in group] for group in groups]


def test_stacks_are_left_aligned_lines_with_line_spacing():
    lines = lines_of(stacked(0, 40, 100, "a1", "a2"), stacked(1, 300, 100, "b1"), stacked(2, 40, 200, "c1"))
    assert texts(stacks(lines)) == [["a1", "a2"], ["b1"], ["c1"]]


def test_a_stack_is_cut_at_a_new_title_after_labels_and_at_a_repeated_label():
    [stack] = stacks(lines_of(stacked(0, 40, 100, "陶瓷杯", "型号：SF-0011", "价格：¥20", "玻璃杯", "型号：SF-0010",
                                      "型号：SF-0013", "材质：钢")))
    assert texts(boundaries(stack)) == [["陶瓷杯", "型号：SF-0011", "价格：¥20"], ["玻璃杯", "型号：SF-0010"],
                                        ["型号：SF-0013", "材质：钢"]]


def card(*lines):
    [stack] = stacks(lines_of(stacked(0, 40, 100, *lines)))
    return stack


def test_a_card_reads_labelled_values_and_its_title_as_the_name():
    draft = read_card(card("玻璃杯", "型号：SF-0010", "颜色：透明", "价格：RMB 12"))
    assert draft.attributes == {"product_name": "玻璃杯", "model": "SF-0010", "color": "透明", "price": "12"}
    assert draft.origin == "card" and draft.bbox == (40, 100, 40 + 6 * 10, 154)


def test_a_card_reads_a_bare_model_code_and_a_bare_price():
    assert read_card(card("DB.392", "¥35")).attributes == {"model": "DB.392", "price": "35"}


def test_a_package_name_alone_on_a_line_is_not_a_cards_code():
    assert read_card(card("GD32F303CCT6", "LQFP48")).attributes == {"model": "GD32F303CCT6"}
    assert read_card(card("LQFP48", "QFN32")) is None


def test_a_card_keeps_the_first_value_of_an_attribute():
    assert read_card(card("型号：SF-0001", "¥9", "价格：¥12")).attributes["price"] == "12"  # labelled first
    assert read_card(card("SF-0001", "¥9", "¥12")).attributes["price"] == "9"


def test_an_unknown_label_before_the_known_ones_is_a_custom_attribute():
    draft = read_card(card("玻璃杯", "功率：20W", "型号：SF-0010"))
    assert draft.custom == {"功率": "20W"} and draft.attributes["model"] == "SF-0010"


def test_an_unknown_label_between_known_labels_stays_in_the_card():
    [draft] = extract_cards(lines_of(stacked(0, 40, 100, "品名：玻璃杯", "型号：SF-0010", "功率：20W", "价格：¥20")))
    assert draft.custom == {"功率": "20W"} and draft.attributes["price"] == "20"


@pytest.mark.parametrize("lines", [("本店所有产品均可定制，欢迎来电。",), ("特价 ¥99",), ("颜色：透明", "价格：¥9")])
def test_a_card_that_names_no_product_is_not_an_sku(lines):
    assert read_card(card(*lines)) is None


def test_a_code_followed_by_sentences_is_prose_about_a_series_not_a_product():
    assert read_card(card("CH32V 系列是基于RISC-V 设计的微控制器。全系产品加入硬件堆栈区")) is None
    assert read_card(card("AB-100 is our best kettle. It boils fast")) is None
    assert read_card(card("AB-100 Stainless kettle, 1.7 L")).attributes["model"] == "AB-100"


def test_a_long_first_line_is_prose_not_a_name():
    draft = read_card(card("这是一段很长的介绍文字" * 4 + "。", "型号：SF-0001"))
    assert draft.attributes == {"model": "SF-0001"}


def test_single_stage_makes_every_model_code_an_sku_with_the_price_of_its_line():
    drafts = extract_lines(lines_of(stacked(0, 40, 100, "新品 ZX-300 与 ZX-301 仅售 ¥59", "AB-120 欢迎选购")))
    assert [d.attributes for d in drafts] == [{"model": "ZX-300", "price": "59"}, {"model": "ZX-301", "price": "59"},
                                              {"model": "AB-120"}]
    assert {d.origin for d in drafts} == {"line"}


def test_a_stack_of_lines_each_ending_with_a_price_is_a_price_list_one_product_a_line():
    lines = lines_of(stacked(0, 40, 100, "Отрезные:", "- 125х1.0х22 – 18,00 руб", "- 125х1.2х22 – 18,30 руб",
                             "- 150х1.6х22 – 24,00 руб", "Зачистные:", "- 230х6х22 – 174,00 руб",
                             "- 125х6х22 – 70,30 руб"))
    drafts = extract_cards(lines)
    assert [(d.attributes["product_name"], d.attributes["price"]) for d in drafts] == [
        ("125х1.0х22", "18.00"), ("125х1.2х22", "18.30"), ("150х1.6х22", "24.00"), ("230х6х22", "174.00"),
        ("125х6х22", "70.30")]


def test_marks_before_a_name_are_not_part_of_it():
    lines = lines_of(stacked(0, 40, 100, "★ 山崎シングルモルト 30,000yen", "★白州シングルモルト 30,000yen",
                             "● サントリー角 5,500yen"))
    drafts = extract_cards(lines)
    assert [(d.attributes["product_name"], d.attributes["price"]) for d in drafts] == [
        ("山崎シングルモルト", "30000"), ("白州シングルモルト", "30000"), ("サントリー角", "5500")]


@pytest.mark.parametrize(("printed", "name"), [
    ("- Bò hấp sả", "Bò hấp sả"), ("« Sữa Tươi Trân Châu", "Sữa Tươi Trân Châu"), ("+ Trà Sữa Oreo", "Trà Sữa Oreo"),
    ("»> Bún Huế", "Bún Huế"), ("«Mont Blanc»", "«Mont Blanc»"), ("-Iced Latte", "-Iced Latte"),
    ("(2) Pizza", "(2) Pizza")])  # no space after: the name's own
def test_a_dash_or_a_bullet_read_as_another_mark_before_a_name_is_the_list_s(printed, name):
    """Tesseract reads a menu's round bullets as '«', '+', '*' or '-'."""
    draft = SkuDraft(origin="table_row")
    draft.set("product_name", printed)
    assert draft.attributes["product_name"] == name


def test_a_currency_ending_a_name_is_the_prices():
    """'Trend IVT Rp.' over '352.140.000': the rupiah sign is printed before the amount, a line down."""
    draft = SkuDraft(origin="card")
    draft.set("product_name", "Trend IVT Rp.")
    assert draft.attributes["product_name"] == "Trend IVT"


def test_an_asterisk_before_a_name_marks_it_and_is_no_part_of_it():
    draft = SkuDraft(origin="table_row")
    draft.set("product_name", "*冰淇淋奶茶")
    assert draft.attributes["product_name"] == "冰淇淋奶茶"


def test_a_header_word_with_its_colon_labels_a_value_and_names_no_product():
    for label in ("Cena:", "产品名称："):
        draft = SkuDraft(origin="card")
        draft.set("product_name", label)
        assert "product_name" not in draft.attributes
    draft = SkuDraft(origin="table_row")
    draft.set("product_name", "Furatolt betét felára ajtónként:")  # a surcharge, named with a colon
    assert draft.attributes["product_name"] == "Furatolt betét felára ajtónként:"


def test_a_bullet_before_a_name_is_the_lists_not_the_names():
    for printed, name in (("·芋頭鮮奶", "芋頭鮮奶"), ("• Espresso", "Espresso"), ("・抹茶ラテ", "抹茶ラテ")):
        draft = SkuDraft(origin="table_row")
        draft.set("product_name", printed)
        assert draft.attributes["product_name"] == name


def test_cards_whose_codes_sit_on_lines_of_their_own_are_not_a_price_list():
    lines = lines_of(stacked(0, 40, 100, "抱枕 ¥46.80", "CU.866", "收纳箱 ¥67.00", "SB.867", "衣架 ¥26.99", "CH.870"))
    assert all("model" in d.attributes for d in extract_cards(lines))


def test_ocr_boxes_of_stacked_lines_that_overlap_a_little_stay_one_stack():
    lines = lines_of(stacked(0, 40, 100, "复古毛巾", "编号:TW.1010", "价格:¥39.50", leading=10))
    assert texts(stacks(lines)) == [["复古毛巾", "编号:TW.1010", "价格:¥39.50"]]


def test_centred_lines_each_ending_with_a_price_are_a_price_list_too():
    centred = ["10ml", "3mg - 10 zł", "120mg - 1120 zł", "24mg - 16 zł"]
    lines = lines_of(block(0, [spanned(100 - 3 * len(t), 100 + 18 * n, t) for n, t in enumerate(centred)]))
    assert centred[1:] in texts(stacks(lines))
    assert [(d.attributes["product_name"], d.attributes["price"]) for d in extract_cards(lines)] == [
        ("3mg", "10"), ("120mg", "1120"), ("24mg", "16")]


def test_a_menu_of_names_ending_in_round_bare_amounts_is_a_price_list():
    menu = ["麻婆豆腐120", "紅燒豆腐 120", "1.糖醋魚片150", "炒牛肉150", "涼拌海菜200", "鱈魚肝180"]
    drafts = extract_cards(lines_of(stacked(0, 40, 100, *menu)))
    assert [(d.attributes["product_name"], d.attributes["price"]) for d in drafts] == [
        ("麻婆豆腐", "120"), ("紅燒豆腐", "120"), ("糖醋魚片", "150"), ("炒牛肉", "150"), ("涼拌海菜", "200"),
        ("鱈魚肝", "180")]


@pytest.mark.parametrize("lines", [
    ["第一章 概述 3", "第二章 安装 7", "第三章 接线 12", "第四章 调试 18", "第五章 维护 25"],  # contents: pages run up
    ["功率 37", "电压 220", "转速 1450", "重量 83", "噪音 68"],  # one product's specs: not round amounts
])
def test_contents_and_specifications_ending_in_numbers_are_no_menu(lines):
    assert extract_cards(lines_of(stacked(0, 40, 100, *lines))) == []


def test_cards_without_labels_each_ending_in_their_price_are_cut_after_each_price():
    """A wine list: name, a line about it, then its price (or prices per bottle size); the line about
    it is wider than the name, so it does not continue the name."""
    lines = lines_of(stacked(0, 40, 100, "Moët Rosé", "Red fruit and a rich, expressive finish", "15,000yen",
                             "Nectar", "Tropical fruit and a rich, round taste", "375ml 13,000yen/750ml 22,000yen",
                             "Ice Brut", "Fresh and fruity, served over ice", "30,000yen", leading=12))
    assert [(d.attributes["product_name"], d.attributes["price"]) for d in extract_cards(lines)] == [
        ("Moët Rosé", "15000"), ("Nectar", "13000"), ("Ice Brut", "30000")]


def test_a_name_wrapped_onto_a_shorter_line_stays_one_name():
    lines = lines_of(stacked(0, 40, 100, "AQUA HAIR STYLING MATTE", "WAX M10", "¥1,280"))
    assert [d.attributes["product_name"] for d in extract_cards(lines)] == ["AQUA HAIR STYLING MATTE WAX M10"]


def test_a_caption_starting_with_the_base_of_its_siblings_codes_is_a_product_too():
    found = extract_cards(lines_of(stacked(0, 50, 300, "LCS-CK2 颗粒双斗"), stacked(1, 250, 300, "LCS-CK1 颗粒有斗"),
                                   stacked(2, 450, 300, "LCS-CK 颗粒无斗"), stacked(3, 50, 500, "SEE 使用说明")))
    assert sorted((d.attributes["model"], d.attributes.get("product_name")) for d in found) == [
        ("LCS-CK", "颗粒无斗"), ("LCS-CK1", "颗粒有斗"), ("LCS-CK2", "颗粒双斗")]
