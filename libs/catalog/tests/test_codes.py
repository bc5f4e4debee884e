"""Product codes, and what only looks like one."""

import pytest
from skuflow_catalog.codes import (
    article_tails,
    code_score,
    find_codes,
    is_package,
    item_number,
    item_numbered,
    leading_code,
    trailing_code,
)
from skuflow_catalog.values import is_color, is_size


@pytest.mark.parametrize("text", ["CB-26551-PK", "SF_1234", "BS-26335", "TB 40/120", "KX 60/8 S", "CSR 150 KG",
                                  "NJ 2324 ECML/C3",
                                  "3МП-25", "АИР63А6", "CH32V307VCT6", "017W", "AFE 80/50 L", "10234", "ＳＦ－００１"])
def test_codes_with_spaces_slashes_dots_and_any_script(text):
    assert code_score(text) >= 0.5


@pytest.mark.parametrize("text", ["II.3", "4.2.1", "2023-05-01", "01.02.2023", "+7 (495) 123-45-67",
                                  "150 kg", "3.5 mm", "12V", "4KB", "120×80×40", "1500х900", "DN 40", "G 1/2", "12.50",
                                  "12", "Pink 12", "Size 40", "0x2000F000", "¥1,280",
                                  "AIR32F103xxxx", "N32G430x6/x8", "128K/256K", "V2.6", "Rev 1.18",
                                  "- 28KB", "64K SRAM", "ISO14001", "GB/T 1234-2008", "DIN EN 1090", "ГОСТ Р 52289",
                                  "DIN EN ISO 1183-1", "DIN 53504/ISO 37",  # a test method's standard
                                  "KvK 12024240", "BIC INGB NL2A", "ИНН 402565020306", "2S SDIO Ether-",
                                  "()HD-S-001", "ABUS USA 23910 N. 19th", "55 W 4th St",
                                  "FAX.（0763）62-3841", "Tel: +86 21 5555",
                                  "MARZO 2025", "JUNE 2024", "2024 MAY", "Oktober 2023",  # a list's date
                                  "1.185.600 ARS ó 256.880 ARS"])  # two prices, one a month's instalment
def test_section_numbers_dates_phones_measurements_and_prices_are_not_codes(text):
    assert code_score(text) == 0.0


def test_a_makers_name_before_a_code_is_a_weaker_code():
    assert code_score("Kostal PIKO 7.0") == 0.6 < code_score("SMA SB 1300TL-10")


@pytest.mark.parametrize("text, package", [("SOP16", True), ("QSOP24", True), ("SOT-23-5", True), ("LQFP64", True),
                                           ("TO-220", True), ("CH32V307", False), ("SF-0001", False)])
def test_electronic_packages_look_like_codes_but_are_known(text, package):
    assert is_package(text) is package


@pytest.mark.parametrize("text, code", [
    ("AFE 80/50 L KN fenékelem csaphornyos", "AFE 80/50 L KN"), ("1690158 ABECEDARIO GRANDE", "1690158"),
    ("БР-002 Бордюр с фаской", "БР-002"), ("Surrantó Elem 56/44", None), ("SF-0001", None), ("Glass Tumbler", None),
])
def test_the_code_a_cell_starts_with(text, code):
    assert leading_code(text) == code


@pytest.mark.parametrize("text, code", [
    ("Przepustnica międzykołnierzowa 017W", "017W"), ("Kurek kulowy kołnierzowy F3515", "F3515"),
    ("Przepustnica (dysk PVC) 031PW", "031PW"), ("Glass Tumbler 300ML", None), ("Pink 12", None),
    ("SF-0001", None), ("AB 12 CD34", None),
])
def test_the_code_a_name_ends_with(text, code):
    assert trailing_code(text) == code


def test_codes_in_running_text_must_be_one_strong_token():
    assert find_codes("型号SF_1234颜色 CB-26551-PK Pink abc-123 X-1 2026 300ML 12V SOP16") == ["SF_1234", "CB-26551-PK"]


def test_sizes_and_colours_in_several_languages():
    assert is_size("300ml") and is_size("120×80×40 mm") and is_size("XL") and not is_size("SF-300")
    assert is_color("黑色") and is_color("Weiß") and is_color("красный") and not is_color("Glass")


def test_a_brand_abbreviation_after_many_article_numbers_starts_the_description():
    cells = ["413616 AB BASE SENZA/GLUTINE 20x25cm", "415313 AB SCROC.CLASS. 28x18 250g", "413615 AB SCROC.CLASS.31cm",
             "650298 b PRET.BLANCA 12f", "650351 b PRET.CARROT CAKE", "651812 b PRET.CIOCC/PERE 12f*"]
    tails = article_tails(cells)
    assert tails == {"AB", "b"}
    assert [leading_code(c, tails) for c in cells[:4]] == ["413616", "415313", "413615", "650298"]
    assert leading_code("AFE 80/50 L KN fenékelem", tails) == "AFE 80/50 L KN"  # a code's own letters stay


def test_letters_after_only_a_few_article_numbers_are_no_description_start():
    assert article_tails(["4711 AB Shirt", "4712 AB Shirt", "CB-1 AB Pink", "4713 XY Blouse"]) == frozenset()


def test_dishes_numbered_to_be_ordered_by_have_item_numbers_a_counted_list_has_none():
    assert [item_number(t) for t in ["80a. Mit Erdnusssoße", "01.酸辣汤", "1.5M", "3.5 M", "Tofu"]] == [
        "80a", "01", None, None, None]
    assert item_numbered(["80. Mit süß-saurer Soße", "80a. Mit Erdnusssoße", "81. In rotem Curry", "83. Tofu"])
    assert not item_numbered(["1.香茅檸檬鍋", "2.川味麻辣鍋", "4.韓式泡菜鍋", "5.時蔬什錦鍋"])  # a count, from 1
    assert not item_numbered(["80. Tofu", "80. Ente", "81. Huhn", "82. Rind"])  # one number twice


def test_a_pack_of_so_much_times_so_many_is_a_size_not_a_code():
    assert [code_score(t) for t in ["(500mLX15)", "250mL×16", "500ml*12"]] == [0.0, 0.0, 0.0]
    assert all(is_size(t) for t in ["(500mLX15)", "250mL×16"]) and code_score("AB-100X15") > 0.5
