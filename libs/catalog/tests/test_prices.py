"""Prices as people print them, per locale, with the raw text kept."""

from decimal import Decimal

import pytest
from skuflow_catalog.prices import (
    decimal_mark,
    find_prices,
    ladder_price,
    leadered_prices,
    leaders,
    menu_prices,
    money_shaped,
    parse_price,
    price_of_cell,
    price_spans,
    trailing_amount,
)
from skuflow_catalog.values import listed_prices


@pytest.mark.parametrize("text, amount, currency", [
    ("16 700 Ft", "16700", "Ft"), ("16\u202f700 Ft", "16700", "Ft"), ("R$ 1.234,56", "1234.56", "R$"),
    ("1.234,56 €", "1234.56", "€"), ("9,400", "9400", None), ("$4.02 ea.", "4.02", "$"),
    ("¥1,280.00", "1280.00", "¥"), ("1'234.50 CHF", "1234.50", "CHF"), ("12,-", "12", None),
    ("Kr. 22:—", "22", "Kr."), ("0.125", "0.125", None), ("12,50", "12.50", None), ("35元", "35", "元"),
    ("от 1 200 руб.", "1200", "руб."), ("9200,00", "9200.00", None), ("1,234,567.89 USD", "1234567.89", "USD"),
    ("10 zł", "10", "zł"), ("10 zl", "10", "zl"), ("10 zt", "10", "zt"),  # zł typed plain, and as Latin OCR reads it
    ("380,00 ¤", "380.00", "¤"),  # a currency OCR could not read (ocr_text.repaired)
    ("4800Р", "4800", "Р"), ("1500 Р", "1500", "Р"),  # ₽ as Cyrillic OCR reads it
    ("272.000 ARS", "272000", "ARS"), ("CLP 12.990", "12990", "CLP"), ("1 250,00 ZAR", "1250.00", "ZAR"),
    ("₹ 12,34,567", "1234567", "₹"), ("1,23,456.00", "123456.00", None), ("Rs. 1,25,000/-", "125000", "Rs."),
    ("45/-", "45", None), ("3850-.", "3850", None), ("1,280円(税込)", "1280", "円"),
    ("€ 12,50 incl. MwSt.", "12.50", "€"),
    ("Euro 1.234,56", "1234.56", "Euro"), ("€ 1.234,00 cad.", "1234.00", "€"), ("1280円+税", "1280", "円"),
    ("36,25 € IVA esclusa", "36.25", "€"), ("Rp 413.950.000", "413950000", "Rp"), ("RM 12.50", "12.50", "RM"),
    ("Tk. 1,200", "1200", "Tk."), ("1,200 টাকা", "1200", "টাকা"), ("MRP 120", "120", None),
])
def test_amounts_in_every_grouping_and_decimal_convention(text, amount, currency):
    price = price_of_cell(text)
    assert (price.text, price.currency, price.raw) == (amount, currency, text.strip())


def test_units_and_ranges_are_kept_apart_from_the_amount():
    assert price_of_cell("$4.02 ea.").per == "ea."
    assert price_of_cell("¥12/件").per == "/件"
    for text, amount in [("500ml 550yen", "550"), ("1 kg $3.50", "3.50"), ("4,500yen", "4500"), ("30 pesos", "30")]:
        assert price_of_cell(text).text == amount  # the pack's price; currencies in words after the amount
    assert price_of_cell("500ml 550") is None  # without a currency, a size beside a number is no price
    per_piece = price_of_cell("12,50 €/Stk.")  # German Stück
    assert (per_piece.text, per_piece.per) == ("12.50", "/Stk.")
    assert price_of_cell("38,45 p/m²").per == "p/m²"  # per square metre, a glazier's price
    bulk = price_of_cell("$/Bulto 25.120,00")  # the currency and the unit before the amount
    assert (bulk.text, bulk.currency, bulk.per) == ("25120.00", "$", "Bulto")
    ranged = price_of_cell("12.50 – 15.00")
    assert (ranged.amount, ranged.upper) == (Decimal("12.50"), Decimal("15.00"))


@pytest.mark.parametrize("text", ["free", "300ml", "", "SF-0001", "33,35%", "na zapytanie", "12 V", "17705412-KR6",
                                  "Gel 250", "PEN 12", "ars 20"])  # words, and a currency's code in lower case
def test_what_is_not_a_price(text):
    assert price_of_cell(text) is None


def test_a_column_decides_its_decimal_mark_together():
    euro = ["9200,00", "12,50", "1 234"]
    assert decimal_mark(euro) == ","
    assert price_of_cell("9,400", decimal_mark(["9,400", "12,50"])).text == "9.400"
    assert decimal_mark(["9,400", "12,500"]) is None  # only thousands: nothing to decide
    assert price_of_cell("9,400").text == "9400"  # alone, three digits after the only separator are thousands
    assert decimal_mark(["1,234.50", "9.4"]) == "."


def test_more_than_three_digits_before_the_only_mark_make_it_decimal_and_the_column_follows():
    assert price_of_cell("21000.000").text == "21000.000"  # no thousands group holds five digits
    assert price_of_cell("$8500.000").text == "8500.000"
    column = ["21000.000", "$8500.000", "230.000"]
    assert decimal_mark(column) == "." and price_of_cell("230.000", decimal_mark(column)).text == "230.000"
    assert price_of_cell("12.500").text == "12500"  # alone, still thousands


@pytest.mark.parametrize("text", ["0121", "0900", "$0070"])
def test_a_number_led_by_a_zero_is_an_identifier_not_an_amount(text):
    assert price_of_cell(text) is None


def test_prices_in_running_text_need_a_currency():
    assert [p.text for p in find_prices("特价 ¥99 起，另有 35元 的款")] == ["99", "35"]
    assert find_prices("共 12 款 300ml") == []
    assert parse_price("特价 ¥99 起") == "99"


def test_a_line_of_several_priced_products_is_parted_where_each_price_stands():
    line = "白菜饭10元/份 Борщ 150 руб. Latte $4"
    spans = price_spans(line)
    assert [line[s.start:s.end].strip() for s in spans] == ["10元/份", "150 руб.", "$4"]
    assert [s.price.text for s in spans] == ["10", "150", "4"] and spans[0].price.per == "/份"


@pytest.mark.parametrize("line, name", [("★烤鮭魚頭600", "★烤鮭魚頭"), ("會議盒餐 $100/盒", "會議盒餐"),
                                        ("Pasta 12,-", "Pasta"), ("Kávé 450 Ft", "Kávé"), ("Щи 120 руб.", "Щи")])
def test_the_amount_a_line_ends_with_is_found_bare_or_with_its_currency(line, name):
    assert line[:trailing_amount(line)].strip() == name


def test_a_line_ending_in_words_has_no_trailing_amount():
    assert trailing_amount("乌龙茶") is None and trailing_amount("12 months warranty") is None


def test_a_number_glued_to_a_size_does_not_swallow_the_price_after_it_as_a_range():
    [price] = find_prices("- 125х1.0х22 – 18,00 руб")
    assert (price.text, price.currency, price.upper) == ("18.00", "руб", None)
    [price] = find_prices("100/22 – 120 руб")
    assert (price.text, price.upper) == ("120", None)


def test_a_price_after_a_chinese_word_is_a_price_not_glue():
    [price] = find_prices("活魚每斤130元")
    assert (price.text, price.currency) == ("130", "元")


@pytest.mark.parametrize("printed, value", [("1,750,00", "1750.00"), ("3.100.00", "3100.00"),
                                            ("1.234.567,89", "1234567.89")])
def test_groups_of_three_then_two_digits_end_with_cents_whatever_the_marks(printed, value):
    assert parse_price(printed) == value


def test_a_currency_written_in_letters_is_no_price_inside_a_word():
    assert find_prices("Form 12 and Harm 12.50") == [] and price_of_cell("Perp 12") is None
    assert find_prices("10 Pairs 20, Yrs 5, Mkr. 12") == [] and find_prices("12 TLC, 20 kraft") == []
    assert [p.currency for p in find_prices("Rs.120, 12 TL, 12 kr, 12 EURO")] == ["Rs.", "TL", "kr", "EURO"]
    assert price_of_cell("MOUNT 5") is None and price_of_cell("NT") is None


@pytest.mark.parametrize("text, amount, currency", [
    ("￥1,280-", "1280", "￥"), ("1,280-", "1280", None),  # a Japanese list's closing dash: no sen
    ("12.5万元", "125000", "元"), ("¥ 12.5万", "125000", "¥"), ("3万", "30000", None),  # 万: ten thousand
    ("1500-00", "1500.00", None), ("1500-50 руб.", "1500.50", "руб."),  # roubles-kopecks
    ("฿120", "120", "฿"), ("120 บาท", "120", "บาท"), ("₱1,200", "1200", "₱"), ("IDR 12.000", "12000", "IDR"),
    ("kr 120", "120", "kr"), ("Fr. 12.50", "12.50", "Fr."), ("3,00 €/St.", "3.00", "€"),
    ("NT 600", "600", "NT"), ("NT150", "150", "NT"), ("NTD 1,200", "1200", "NTD"),  # Taiwan dollars
])
def test_closing_dashes_ten_thousands_kopecks_and_more_currencies(text, amount, currency):
    price = price_of_cell(text)
    assert (price.text, price.currency, price.upper) == (amount, currency, None)


@pytest.mark.parametrize("text, amount", [("18k", "18000"), ("105k", "105000"), ("1.5k", "1500"), ("25k đ", "25000")])
def test_an_amount_in_thousands_glued_to_a_k_is_its_thousands(text, amount):
    """Vietnamese menus print dong so ('Trà Sữa 18k'), beside the name or in a column of their own."""
    assert price_of_cell(text).text == amount
    assert trailing_amount(f"Bò nướng muối ớt {text}") == len("Bò nướng muối ớt")


@pytest.mark.parametrize("text, lower, upper", [("150k-280k", "150000", "280000"), ("20k-25", "20000", "25000"),
                                               ("15-20k", "15000", "20000"), ("150k - 280k đ", "150000", "280000")])
def test_a_range_in_thousands_is_in_thousands_at_both_ends(text, lower, upper):
    """'Lẩu 150k-280k': the k of either end says the other's unit too (it is printed once or twice)."""
    price = price_of_cell(text)
    assert (price.amount, price.upper) == (Decimal(lower), Decimal(upper))
    assert trailing_amount(f"Lẩu thái {text}") == len("Lẩu thái")  # the name before the whole range


@pytest.mark.parametrize("text", ["10kW", "4 kg", "12500k", "5 K", "4K", "16K"])
def test_a_k_that_starts_a_unit_follows_a_long_number_or_sizes_memory_is_no_thousands(text):
    assert price_of_cell(text) is None


def test_a_full_stop_typed_after_the_cents_ends_the_price_but_no_thousands_group_is_cut_short():
    assert (price_of_cell("$572.00.").text, price_of_cell("572,00.").text) == ("572.00", "572.00")
    assert price_of_cell("1.234.") is None and price_of_cell("$12.5.") is None


def test_a_range_still_runs_up_and_a_month_is_no_kopecks():
    assert (price_of_cell("10-15").amount, price_of_cell("10-15").upper) == (Decimal("10"), Decimal("15"))
    assert price_of_cell("2019-12").upper == Decimal("12")  # '-12' without a currency is no kopecks
    assert price_of_cell("06-") is None  # a model year on, not a price closed by a dash


def test_a_menus_price_column_is_judged_from_its_first_to_its_last_amount():
    """A title above the prices and a legend below them are not the column."""
    from skuflow_catalog.prices import menu_prices

    column = ["好茶陪伴你的日常", "Daily.", "30", "30", "35", "35", "40", "40", "50", "少糖", "70% SUGAR"]
    assert menu_prices(column)
    assert not menu_prices(["30", "Daily.", "30", "少糖", "35", "70%", "40", "Tea", "50"])  # words among them


def test_a_dot_leader_ends_in_the_price_a_menu_prints_without_currency_a_contents_line_in_a_page_number():
    menu = ["In rotem Curry (scharf) ........ 14,90", "韓式烤雞肉飯……210", "Tofu .... 9,50", "Kapitel .... Seite"]
    assert leadered_prices(menu) == 2  # one whole amount alone is no menu's price
    assert leadered_prices([f"{dish}……{price}" for dish, price in zip("甲乙丙丁戊", (210, 180, 220, 180, 200),
                                                                     strict=True)]) == 5
    assert leadered_prices(["Einleitung ...... 3", "Vorspeisen ...... 7", "Suppen ...... 12", "Nudeln ...... 19",
                            "Reis ...... 25", "Desserts ...... 31"]) == 0
    assert leaders("Softs (Coca-Cola, Fanta,...)") == [] and leaders("Ltd.. Co") == []


def test_a_cell_listing_a_price_per_size_lists_them_and_a_cell_with_words_lists_none():
    assert [p.amount for p in listed_prices("375ml 13,000yen/750ml 22,000yen")] == [13000, 22000]
    assert [p.amount for p in listed_prices("300元 350元")] == [300, 350]
    assert listed_prices("高價運動鞋 400元") == [] and listed_prices("30 35") == []  # a name; no currency


def test_a_cell_of_prices_per_size_gives_its_first_and_a_grouped_thousand_stays_one_amount():
    assert [ladder_price(t) for t in ["55 65", "45 55 65", "65 55", "120 150", "40"]] == ["55", "45", None, None, None]
    assert menu_prices(["40", "35", "M", "55 65", "50 60", "50 60", "65 75"])  # M and L prices under a size letter


def test_prices_each_after_its_size_give_the_first_but_a_lone_size_or_threads_do_not():
    assert [ladder_price(t) for t in ["M 30/L 35", "M30/L35", "中 40 / 大 50", "M 35/L 30", "M 55", "M6 M8"]] == [
        "30", "30", "40", None, None, None]
    assert menu_prices(["M 40/L 45", "M 30/L 35", "M 50/L 60", "M 30/L 35", "M 45/L 55"])


def test_a_menu_prices_to_the_cent_and_a_cell_of_prices_per_size_may_part_them_with_bars():
    assert [ladder_price(t) for t in ["4,50| 7,00|13,00| 16,00", "4,50 | 7,00", "4,50 | 7,00 | 6,00", "4,50 | 7"]] == [
        "4,50", "4,50", None, None]  # rising, and all to the cent or all whole
    assert menu_prices(["4,50", "3,00", "6,00", "4,50", "5,50", "3,50"])
    assert menu_prices(["4,50| 7,00|13,00| 16,00", "3,00| 5,00|10,00| 14,00", "6,00| 8,00|15,00| 18,00",
                        "4,50| 7,00|13,00| 16,00", "5,50| 7,50|14,00| 18,00"])
    assert not menu_prices(["0.25", "0.50", "0.75", "1.00", "1.25", "1.50"])  # sizes run up line by line
    assert not menu_prices(["2.54", "1.27", "3.18", "0.64", "2.11", "1.93"])  # measures are not round


def test_a_column_rule_typed_as_a_bar_beside_an_amount_is_not_part_of_it():
    assert price_of_cell("4,50|").text == "4.50" and price_of_cell("| 13,00 |").text == "13.00"
    assert price_of_cell("|") is None


def test_a_price_labelled_before_its_amount_is_the_amount():
    assert [price_of_cell(t).text for t in ["税込1,080円", "本体価格 1,000円", "定価：1,080円", "特價 350元"]] == [
        "1080", "1000", "1080", "350"]
    assert price_of_cell("税込") is None


def test_a_price_printed_again_another_way_in_brackets_is_the_first_printed():
    assert price_of_cell("1,000円(税込1,080円)").text == "1000"
    assert price_of_cell("1,080円（本体1,000円）").text == "1080"
    assert price_of_cell("1,000円(10個)") is None and price_of_cell("120 (2020)") is None  # a count, a year


@pytest.mark.parametrize(("printed", "amount", "currency"), [
    ("1.250.000 VNĐ", "1250000", "VNĐ"), ("AED 1,250", "1250", "AED"), ("SAR 120", "120", "SAR"),
    ("1 250 тг", "1250", "тг"), ("1250 сум", "1250", "сум"), ("1,250 TWD", "1250", "TWD"),
    ("120元/斤", "120", "元"),  # a market's price per jin
])
def test_currencies_of_vietnam_the_gulf_central_asia_and_taiwan(printed, amount, currency):
    found = price_of_cell(printed)
    assert (found.text, found.currency) == (amount, currency)


@pytest.mark.parametrize("text, money", [
    ("14,000.00", True), ("1.234,56", True), ("1,234,567.89", True),
    ("14000.00", False), ("12.50", False), ("1,234", False), ("€ 14,000.00", False)])
def test_an_amount_grouped_to_the_thousand_and_written_to_the_cent_is_written_as_money(text, money):
    assert money_shaped(text) is money
