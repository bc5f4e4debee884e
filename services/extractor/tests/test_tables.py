"""Table rules: header synonyms, columns by left edges, shared attributes, continuation of a table."""

import pytest
from extractor_pages import HEADER, block, body_rows, cells, lines_of, spanned, stacked, table

from skuflow_extractor.domain.grid import Cell, Grid, Row
from skuflow_extractor.domain.model_cells import NAMED_EVIDENCE, model_of, recurring_tags, series_words
from skuflow_extractor.domain.roles import ColumnRole
from skuflow_extractor.domain.table_header import header_like, split_header
from skuflow_extractor.domain.tables import TableHeader, find_tables, headerless_rows
from skuflow_extractor.domain.words import Word

TOLERANCE = 4.0


def tables_of(*blocks, previous=None):
    return find_tables(lines_of(*blocks), TOLERANCE, previous)


def models(found):
    return [sku.attributes.get("model") for t in found for sku in t.skus]


def test_one_body_row_is_one_sku_with_columns_mapped_from_the_header():
    [found] = tables_of(*table(0, 100, [HEADER, *body_rows(1, 2)]))
    assert [sku.attributes for sku in found.skus] == [
        {"model": "SF-0001", "product_name": "玻璃杯", "size": "100ml", "price": "1.50"},
        {"model": "SF-0002", "product_name": "玻璃杯", "size": "200ml", "price": "2.50"}]
    assert not found.inherited and {sku.origin for sku in found.skus} == {"table_row"}
    assert [role for role, *_ in found.header.columns] == ["model", "product_name", "size", "price"]


@pytest.mark.parametrize("header", [
    ["Item No.", "Description", "Size", "Unit Price (USD)"],
    ["型号/Model", "品名/Name", "规格/Size", "单价（元）"],
])
def test_english_and_bilingual_headers_map_to_the_same_attributes(header):
    [found] = tables_of(*table(0, 100, [header, ["AB-120", "Mug", "12oz", "$4.50"]]))
    assert found.skus[0].attributes == {"model": "AB-120", "product_name": "Mug", "size": "12oz", "price": "4.50"}


def test_a_picture_column_is_a_column_without_attribute():
    [found] = tables_of(*table(0, 100, [["图片", "型号", "价格"], ["[img]", "SF-0001", "¥8"]], xs=(50, 140, 290)))
    assert found.header.columns[0][0] is None and found.header.columns[0][3] == "图片"
    assert found.skus[0].attributes == {"model": "SF-0001", "price": "8"}


def test_a_single_row_is_a_table_only_under_a_header():
    assert models(tables_of(*table(0, 100, [["型号", "备注", "说明"], ["SF-0001", "x", "y"]]))) == ["SF-0001"]
    assert tables_of(*table(0, 100, [["SF-0001", "玻璃杯", "¥8"]])) == []


def test_cells_merged_into_one_line_are_split_by_their_words_left_edges():
    rows = [cells(0, 100, ["型号", "颜色", "价格"], xs=(50, 122, 290)),
            block(1, [spanned(50, 120, "CB-26551-PK Pink"), spanned(290, 120, "$4.50")])]
    [found] = tables_of(*rows)
    assert found.skus[0].attributes == {"model": "CB-26551-PK", "color": "Pink", "price": "4.50"}


def test_a_wide_gap_or_a_row_that_names_no_product_ends_the_table():
    gap = table(0, 100, [HEADER, *body_rows(1, 2)]) + table(10, 300, [["共计", "", "2件", "¥4.00"]])
    assert models(tables_of(*gap)) == ["SF-0001", "SF-0002"]  # a lone row without a code is a footer
    note = table(0, 100, [HEADER, *body_rows(1, 1), ["以上价格均含税"], *body_rows(2, 1)])
    assert models(tables_of(*note)) == ["SF-0001", "SF-0002"]  # a one-cell row is a heading, not an SKU


def test_two_headers_make_two_tables():
    found = tables_of(*table(0, 100, [HEADER, *body_rows(1, 2)]), *table(10, 400, [HEADER, *body_rows(5, 1)]))
    assert models(found) == ["SF-0001", "SF-0002", "SF-0005"]


def test_a_variant_card_above_a_header_is_shared_by_its_rows_as_one_variant_group():
    title = stacked(20, 50, 46, "保温杯套装", "材质：不锈钢", "颜色：银色")
    [found] = tables_of(title, *table(0, 100, [["型号", "规格", "价格"], ["SF-0001", "350ml", "¥59"],
                                               ["SF-0002", "500ml", "¥69"]], xs=(50, 140, 290)))
    assert [sku.attributes["product_name"] for sku in found.skus] == ["保温杯套装", "保温杯套装"]
    assert {sku.variant_group for sku in found.skus} == {"t1"}
    assert found.skus[0].source == {"product_name": "variant_card", "material": "variant_card",
                                    "color": "variant_card"}


def test_a_caption_above_a_header_is_shared_as_table_caption_without_a_variant_group():
    caption = stacked(20, 50, 60, "材质：玻璃", "颜色：透明")
    [found] = tables_of(caption, *table(0, 100, [HEADER, *body_rows(1, 2)]))
    assert [sku.attributes["material"] for sku in found.skus] == ["玻璃", "玻璃"]
    assert found.skus[0].source == {"material": "table_caption", "color": "table_caption"}
    assert {sku.variant_group for sku in found.skus} == {None}


def test_a_row_keeps_its_own_value_over_the_shared_one():
    caption = stacked(20, 50, 74, "品名：套装")
    [found] = tables_of(caption, *table(0, 100, [HEADER, *body_rows(1, 1)]))
    assert found.skus[0].attributes["product_name"] == "玻璃杯" and "product_name" not in found.skus[0].source


def test_labelled_lines_far_above_the_header_or_off_its_left_edge_are_not_shared():
    far = stacked(20, 50, 20, "材质：玻璃")
    aside = stacked(21, 200, 74, "颜色：透明")
    [found] = tables_of(far, aside, *table(0, 100, [HEADER, *body_rows(1, 1)]))
    assert found.skus[0].source == {} and found.skus[0].variant_group is None


def previous_header():
    [found] = tables_of(*table(0, 100, [HEADER, *body_rows(1, 2)]))
    return found.header


def test_headerless_rows_under_the_previous_header_continue_its_table():
    found = tables_of(*table(0, 60, body_rows(3, 2)), previous=previous_header())
    assert [t.inherited for t in found] == [True]
    assert found[0].skus[1].attributes == {"model": "SF-0004", "product_name": "玻璃杯", "size": "400ml",
                                           "price": "4.50"}


def test_a_continuation_comes_first_and_only_above_the_pages_own_header():
    own = table(10, 300, [HEADER, *body_rows(7, 1)])
    found = tables_of(*table(0, 60, body_rows(3, 1)), *own, previous=previous_header())
    assert [t.inherited for t in found] == [True, False] and models(found) == ["SF-0003", "SF-0007"]
    assert [t.inherited for t in tables_of(*own, previous=previous_header())] == [False]


def test_rows_off_the_previous_headers_columns_are_read_on_their_own():
    shifted = table(0, 60, body_rows(3, 2), xs=(75, 175, 315, 455))
    [found] = tables_of(*shifted, previous=previous_header())
    assert not found.inherited and models([found]) == ["SF-0003", "SF-0004"]
    assert set(found.skus[0].source.values()) == {"inferred_columns"}


def test_the_header_round_trips_through_json():
    header = previous_header()
    assert TableHeader.from_json(header.to_json()) == header


def test_headerless_rows_are_detected_only_when_no_header_comes_first():
    assert headerless_rows(lines_of(*table(0, 60, body_rows(3, 2))), TOLERANCE)
    assert not headerless_rows(lines_of(*table(0, 60, [HEADER, *body_rows(3, 2)])), TOLERANCE)
    assert not headerless_rows(lines_of(stacked(0, 50, 60, "型号：SF-0001", "价格：¥8")), TOLERANCE)
    assert not headerless_rows(lines_of(stacked(0, 50, 60, "SF-0001")), TOLERANCE)  # one cell is no row


def ruled(top, count, pitch=20, left=40.0, right=520.0, inner_left=280.0):
    """Rules of a table whose first column is one merged cell: each row ruled from ``inner_left`` on,
    the block ruled across its whole width above and below."""
    inner = [(inner_left, top - 4 + pitch * n, right, top - 4 + pitch * n) for n in range(1, count)]
    edges = [(left, y, right, y) for y in (top - 4, top - 4 + pitch * count)]
    return [*edges, *inner]


def test_a_merged_cell_the_row_rules_stop_short_of_stands_in_every_row_it_spans():
    xs = (50, 290, 430)
    rows = [["Kurek kulowy", "15", "112,32"], ["kołnierzowy F3515", "20", "120,14"], ["", "25", "135,07"],
            ["", "32", "158,53"]]
    blocks = [cells(0, 80, ["Nazwa", "DN", "Cena PLN"], xs), *table(1, 100, rows, xs=xs)]
    [found] = find_tables(lines_of(*blocks), TOLERANCE, None, ruled(100, 4))
    assert [(s.attributes["model"], s.attributes["product_name"], s.attributes["price"]) for s in found.skus] == [
        ("F3515", "Kurek kulowy kołnierzowy F3515", price) for price in ("112.32", "120.14", "135.07", "158.53")]
    unruled = find_tables(lines_of(*blocks), TOLERANCE, None)
    assert len([s for t in unruled for s in t.skus]) < 4  # without the rules nothing says the cell is merged


def test_a_headerless_block_does_not_take_the_columns_of_a_block_above_that_had_no_header_either():
    """Menus side by side under a one-list block: the block above was read from its cells alone, so its
    columns say nothing of these; laid over them they priced 'Citron' with the right-hand list's 4,50 €."""
    first = table(0, 100, [["Thé vert", "3,50 €"], ["Thé noir", "3,20 €"], ["Café", "2,80 €"]], xs=(300, 450))
    second = table(10, 300, [["Citron", "4,00 €", "Orange", "4,50 €"], ["Pomme", "3,90 €", "Poire", "4,10 €"],
                             ["Fraise", "5,00 €", "Kiwi", "4,20 €"]], xs=(50, 200, 300, 450))
    found = tables_of(*first, *second)
    priced = {s.attributes["product_name"]: s.attributes["price"] for t in found for s in t.skus}
    assert priced["Citron"] == "4.00" and priced["Pomme"] == "3.90" and priced["Thé vert"] == "3.50"
    assert not any(t.inherited for t in found)


def test_a_heading_in_capitals_right_above_a_row_heads_the_rows_below_and_is_no_part_of_its_name():
    xs = (50, 200, 300, 450)
    before = table(0, 30, [["Vleeskroket", "2.25", "Broodje Ham", "2.50"], ["Kaaskroket", "2.75", "Broodje Ei", "2.50"],
                           ["Frikandel", "2.10", "Broodje Kaas", "2.50"]], xs=xs, pitch=14)
    heading = cells(5, 100, ["PATAT (exclusief saus)", "BROODJES"], xs=(50, 300))  # touching the row below it
    rows = table(6, 111, [["Patat klein", "2.85", "Broodje Gezond", "4.00"],
                          ["Patat groot", "3.75", "Broodje Kroket", "3.25"]], xs=xs, pitch=14)
    names = [s.attributes["product_name"] for t in tables_of(*before, heading, *rows) for s in t.skus]
    assert "Broodje Gezond" in names and not any("BROODJES" in name for name in names)


def test_a_headerless_block_of_rows_continues_the_table_above_it_but_a_lone_footer_line_does_not():
    found = tables_of(*table(0, 100, [HEADER, *body_rows(1, 2)]), cells(9, 210, ["(续上表)"]),
                      *table(10, 240, body_rows(3, 2)), cells(20, 400, ["SF-9999 Datasheet", "", "", "12/54"]))
    assert models(found) == ["SF-0001", "SF-0002", "SF-0003", "SF-0004"]
    assert [t.inherited for t in found] == [False, True]


def test_a_header_repeating_after_each_model_column_makes_side_by_side_tables():
    rows = [["型号", "价格", "型号", "价格"], ["SF-0001", "¥8", "SF-0101", "¥9"], ["SF-0002", "¥8", "SF-0102", "¥9"]]
    found = tables_of(*table(0, 100, rows, xs=(50, 160, 300, 410)))
    assert len(found) == 2 and models(found) == ["SF-0001", "SF-0002", "SF-0101", "SF-0102"]


def test_a_header_repeating_whole_makes_side_by_side_price_lists_even_with_one_name_misread():
    rows = [["品頂", "價格", "品項", "價格"], ["購物袋", "2", "白色內衣", "100"],
            ["平板衛生紙", "27", "平口內褲", "120"], ["藥皂", "24", "藍襪", "35"]]
    found = tables_of(*table(0, 100, rows, xs=(50, 160, 300, 410)))
    names = [(sku.attributes.get("product_name"), sku.attributes.get("price")) for t in found for sku in t.skus]
    assert len(found) == 2
    assert names == [("購物袋", "2"), ("平板衛生紙", "27"), ("藥皂", "24"), ("白色內衣", "100"), ("平口內褲", "120"),
                     ("藍襪", "35")]


def test_a_header_naming_a_code_first_and_a_price_last_is_one_table_not_two_halves():
    rows = [["Modell", "", "", "Preis"], ["1", "iPad 128GB", "Pflichtauswahl", "369,00"],
            ["2", "iPad 256GB", "Pflichtauswahl", "489,00"], ["3", "iPad Air 11", "Pflichtauswahl", "610,00"]]
    found = tables_of(*table(0, 100, rows, xs=(50, 120, 300, 410)))
    assert len(found) == 1
    assert [sku.attributes.get("price") for sku in found[0].skus] == ["369.00", "489.00", "610.00"]


def test_a_codeless_row_above_the_first_coded_one_is_the_lists_title_not_a_product():
    rows = [["", "Lista", "de Precios", "4"], ["0121", "ACEITE DE OLIVA POMAN", "7794513100011", "21000.000"],
            ["0316", "ACEITE DE PALTA EXTRA", "7794513100013", "14000.000"],
            ["3034", "ACETO BALSAMICO CASALTA", "7798039440142", "$8500.000"]]
    found = tables_of(*table(0, 100, rows, xs=(30, 80, 370, 460)))
    assert [(s.attributes.get("model"), s.attributes.get("price")) for t in found for s in t.skus] == [
        ("0121", "21000.000"), ("0316", "14000.000"), ("3034", "8500.000")]


def test_a_flag_ending_many_code_cells_is_not_part_of_the_code():
    assert recurring_tags(["SG 5.0RT -SALE%", "SG 6.0RT -SALE%", "SH 8.0RT -SALE%", "SG 33CX-V112"]) == {"-SALE%"}
    rows = [["TYP", "PREIS / STÜCK"], ["SG 5.0RT -SALE%", "285 €"], ["SG 6.0RT -SALE%", "289 €"],
            ["H3-5.0-Smart -SALE%", "1.192 €"], ["SG 33CX-V112", "1.529 €"]]
    assert models(tables_of(*table(0, 100, rows, xs=(50, 300)))) == ["SG 5.0RT", "SG 6.0RT", "H3-5.0-Smart",
                                                                     "SG 33CX-V112"]
    # a code repeated down the rows (one product in several sizes) is no flag
    assert recurring_tags(["Kurek kulowy F3515", "Kurek kulowy F3515", "Kurek kulowy F3515"]) == frozenset()


def test_two_code_columns_in_a_header_that_does_not_repeat_are_one_table():
    rows = [["Item", "Model", "Price"], ["24774712-KR3", "GLA 250 4MATIC AMG Line", "64,363,636"],
            ["24370112-KR7", "EQA 250 Progressive", "64,363,636"], ["23635012-KR4", "CLE 200 Coupe", "70,545,455"]]
    [found] = tables_of(*table(0, 100, rows, xs=(50, 160, 400)))
    assert models([found]) == ["24774712-KR3", "24370112-KR7", "23635012-KR4"]
    assert found.skus[0].attributes["price"] == "64363636"


SERIES_LABELS = ["系列", "型号", "闪存(K字节)"]


@pytest.mark.parametrize(("series", "suffixes", "expected"), [
    ([(285, "Air32F103")], [(200, "CBT6"), (300, "CCT6"), (400, "RPT6")],
     ["Air32F103CBT6", "Air32F103CCT6", "Air32F103RPT6"]),
    ([(135, "MH32F103C"), (335, "MH32F103A")], [(150, "CBT6"), (230, "CCT6"), (310, "RPT6"), (390, "VET6"),
                                                (470, "VGT6")],
     ["MH32F103CCBT6", "MH32F103ACCT6", "MH32F103ARPT6", "MH32F103AVET6", "MH32F103AVGT6"]),
    ([(x - 3, "MM32F103") for x in (150, 260, 370)], [(x, "VET/VCT") for x in (150,)] + [(260, "RET/RCT"),
                                                                                      (370, "CET/CCT")],
     ["MM32F103VET/VCT", "MM32F103RET/RCT", "MM32F103CET/CCT"]),
])
def test_part_numbers_printed_as_a_series_over_its_suffixes_join_per_column(series, suffixes, expected):
    """The series cell is centred over the suffixes it covers; each column is one product."""
    top = [block(0, [spanned(50, 100, SERIES_LABELS[0]), *(spanned(x, 100, t) for x, t in series)])]
    lower = [block(1, [spanned(50, 120, SERIES_LABELS[1]), *(spanned(x, 120, t) for x, t in suffixes)])]
    values = [block(2, [spanned(50, 140, SERIES_LABELS[2]), *(spanned(x, 140, str(128 * (n + 1)))
                                                                for n, (x, _) in enumerate(suffixes))])]
    [found] = tables_of(*top, *lower, *values)
    assert models([found]) == expected
    assert found.skus[0].custom == {"闪存(K字节)": "128"}


def test_a_letter_spaced_chinese_header_names_its_columns():
    spaced = [spanned(50, 100, "型"), spanned(80, 100, "号"), spanned(290, 100, "单"), spanned(314, 100, "价")]
    rows = table(1, 120, [["AB-1203", "", "¥12.50"], ["AB-1204", "", "¥13.50"]], xs=(50, 140, 290))
    [found] = tables_of(block(0, spaced), *rows)
    assert [(r.role, r.header, r.named) for r in found.roles if r.role] == [("model", "型 号", True),
                                                                           ("price", "单 价", True)]
    assert [s.attributes for s in found.skus] == [{"model": "AB-1203", "price": "12.50"},
                                                  {"model": "AB-1204", "price": "13.50"}]


GLAZING = (40, 260, 280, 320, 340)  # name | € | amount | € | amount


def test_names_beside_currency_marked_amounts_are_a_price_list_without_a_header():
    labels = cells(0, 100, ["Clear glass", "Coated glass"], xs=(250, 336))  # name the price columns: no product
    rows = [["4 - spouw - #4", "€", "36,25", "€", "38,45 p/m²"],
            ["5# - spouw - 3(1)3", "€", "56,05", "€", "58,15 p/m²"],
            ["6(2)6 - spouw - #4(2)4", "€", "105,60", "€", "109,90 p/m²"]]
    found = tables_of(labels, *table(1, 120, rows, xs=GLAZING))
    assert [(s.attributes, s.custom) for t in found for s in t.skus] == [
        ({"product_name": "4 - spouw - #4", "price": "36.25"}, {"Coated glass": "38,45 p/m²"}),
        ({"product_name": "5# - spouw - 3(1)3", "price": "56.05"}, {"Coated glass": "58,15 p/m²"}),
        ({"product_name": "6(2)6 - spouw - #4(2)4", "price": "105.60"}, {"Coated glass": "109,90 p/m²"})]
    assert len(found) == 1


def test_names_beside_amounts_written_as_money_are_a_price_list_without_a_header():
    """'14,000.00': grouped to the thousand and written to the cent, as money is and specifications are not."""
    rows = [["21.", "Scholar desk and chairs", "14,000.00"], ["22.", "Auditorium chair collapsible", "25,000.00"],
            ["23.", "Folding table", "13,000.00"]]
    found = tables_of(*table(0, 100, rows, xs=(50, 110, 460)))
    assert [(s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus] == [
        ("Scholar desk and chairs", "14000.00"), ("Auditorium chair collapsible", "25000.00"),
        ("Folding table", "13000.00")]
    ungrouped = [[n, name, price.replace(",", "")] for n, name, price in rows]
    assert tables_of(*table(0, 100, ungrouped, xs=(50, 110, 460))) == []  # '14000.00' may measure anything


def test_names_beside_bare_decimals_or_codes_beside_prices_are_no_price_list_without_a_header():
    specs = [["4 -15 argon - SSN 1.1", "82", "65", "1,1"], ["4 - 15 argon - NG 4", "76", "55", "1,0"],
             ["4 SSN - 15 argon - 4", "76", "50", "1,0"]]
    assert tables_of(*table(0, 100, specs)) == []  # a table of specifications prints decimals too
    variants = [["GT-0223-GN 绿色", "40.00元"], ["GT-0223-BG 米色", "27.90元"], ["GT-0223-WH 白色", "46.00元"]]
    assert all(t.skus[0].attributes.get("model") for t in tables_of(*table(0, 100, variants, xs=(50, 290))))


def test_the_first_rows_wrapped_top_line_is_body_not_a_second_header_line():
    header = cells(0, 100, ["Brewery", "Name", "Notes", "Price"], xs=(50, 150, 250, 480))
    top = cells(1, 114, ["Chorlton Brewing", "Hull Melon Lager"], xs=(50, 150))
    data = cells(2, 121, ["Company", "", "Lager brewed using Hull Melon hops", "£3.00"], xs=(50, 150, 250, 480))
    rest = table(3, 140, [["Harviestoun", "Schiehallion", "Bitter", "£2.50"],
                          ["Mikkeller", "American Dream", "Pilsner", "£4.50"]], xs=(50, 150, 250, 480))
    [found] = tables_of(header, top, data, *rest)
    assert [(s.attributes["product_name"], s.attributes["price"]) for s in found.skus] == [
        ("Hull Melon Lager", "3.00"), ("Schiehallion", "2.50"), ("American Dream", "4.50")]


def test_digits_in_groups_under_a_header_naming_the_code_are_an_article_number_not_a_phone():
    assert model_of("618 009 227 221", ColumnRole("model", "Art.-Nr.", named=True)) == (
        ["618 009 227 221"], NAMED_EVIDENCE)
    assert model_of("618 009 227 221", ColumnRole("model", "")) is None  # unheaded, it may be a phone number
    assert model_of("KOSTAL PIKO 17", ColumnRole("model", "", designation=True)) == (
        ["KOSTAL PIKO 17"], NAMED_EVIDENCE)


def test_a_priced_code_of_capitals_in_parts_is_a_code_under_a_header_naming_the_code():
    column = ColumnRole("model", "KODE BARANG", named=True)
    assert model_of("NN-LLED-MODULE-DEVILEYES-SEIN", column, priced=True) == (
        ["NN-LLED-MODULE-DEVILEYES-SEIN"], NAMED_EVIDENCE)
    assert model_of("NN-LLED-MODULE-DEVILEYES-SEIN", column) is None  # no price: a heading in capitals
    assert model_of("LED Luximos", column, priced=True) is None


def test_a_title_line_with_header_words_over_the_header_row_does_not_head_the_table():
    """'MASTER DEALER,TOKO,RETAIL…' is one line of a title spread over the columns, not cells naming
    them: the header is the row that names them cell by cell."""
    def row(y, *cells, step=40):
        words = [[Word(w, (x + step * n, y, x + step * n + 35, y + 9), int(y)) for n, w in enumerate(t.split())]
                 for x, t in cells]
        return Row(tuple(Cell(" ".join(w.text for w in ws), (ws[0].bbox[0], y, ws[-1].bbox[2], y + 9), tuple(ws))
                         for ws in words), frozenset({int(y)}), 9.0)

    title = row(79, (80, "MASTER DEALER,TOKO,RETAIL TERENDAH"), step=110)  # 'master' names a quantity
    header = row(111, (20, "No."), (80, "KODE BARANG"), (200, "MASTER DEALER"), (300, "HARGA TOKO"))
    body = [row(129, (20, "1"), (80, "NN-LLED-TSN1"), (200, "480.000,00"), (300, "525.000,00"))]
    grid = Grid(tuple(body), ((20, 55), (80, 155), (200, 275), (300, 375)), (title, header))
    heading, rows = split_header(grid)
    assert heading == [header] and rows == body


def test_a_records_first_line_with_a_description_or_a_labelled_value_is_no_header():
    assert header_like(["Código", "Descripcion", "Stock", "Precio"])
    assert not header_like(["1.133", "BIZCOCHUELO MAMA COCINA VAINILLA (Presentación x10u)", "Stock", "Precio"])
    assert not header_like(["409", "MERCADERIA VARIAS", "Stk: 44,00", "$/Unidad"])


def test_a_header_set_apart_from_its_rows_by_group_headings_still_heads_them():
    header = cells(0, 100, ["Código", "Descripcion", "Precio"], xs=(50, 150, 400))
    group = stacked(1, 150, 130, "Linea: ALMACEN", "Sublinea: ACEITES", leading=30)
    rows = table(2, 220, [["1.130", "ACEITE EL CORTIJO", "$ 40.350,00"], ["1.138", "ACEITE PRIMORDIAL", "$ 29.040,00"]],
                 xs=(50, 150, 400))
    found = tables_of(header, group, *rows)
    assert [(s.attributes.get("model"), s.attributes.get("price")) for t in found for s in t.skus] == [
        ("1.130", "40350.00"), ("1.138", "29040.00")]


def test_a_first_rows_lines_that_overlap_in_turn_are_its_lines_not_the_header():
    """A name's top line over a centred row number over the line with the price: one row, and the
    header above it (one header word only) keeps none of them."""
    xs = (50, 150, 400, 480)
    header = cells(0, 2, ["Modell", "", "", "Webshoppreis"], xs=xs)
    title = cells(1, 20, ["", "Apple iPads"], xs=xs)
    top = cells(2, 38, ["", "Apple iPad 128GB WiFi (ohne"], xs=xs)
    number = cells(3, 43, ["1"], xs=xs)
    data = cells(4, 49, ["", "Netzteil)", "Pflicht", "369,00 €"], xs=xs)
    rest = table(5, 80, [["2", "Apple iPad 256GB WiFi", "Pflicht", "489,00 €"],
                         ["3", "Apple iPad Air 128GB", "Pflicht", "610,00 €"]], xs=xs)
    found = tables_of(header, title, top, number, data, *rest)
    assert [(s.attributes.get("model"), s.attributes.get("price")) for t in found for s in t.skus] == [
        ("1", "369.00"), ("2", "489.00"), ("3", "610.00")]
    assert found[0].skus[0].attributes["product_name"] == "Apple iPad 128GB WiFi (ohne Netzteil)"


def test_underlined_cell_text_does_not_part_a_ruled_row():
    xs = (50, 140, 430)
    header = cells(0, 60, ["Артикул", "Наименование", "Цена"], xs=xs)
    rows, rules = [], [(40, 78, 560, 78)]
    for n, (code, name, wrap, price) in enumerate([("TY-070-L", "LANDCRUISER ФАРА ЛЕВ", "С РЕШЕТК", "557"),
                                                   ("TY-070-R", "LANDCRUISER ФАРА ПРАВ", "С РЕШЕТК", "558"),
                                                   ("GE-640", "EMGRAND БАМПЕР ЗАДН", "(Китай)", "1531"),
                                                   ("GE-450", "EMGRAND ЗЕРКАЛО ЛЕВ", "(Китай)", "1549")]):
        top = 80 + 32 * n
        rows += [cells(1 + 2 * n, top, [code, name, price], xs=xs), cells(2 + 2 * n, top + 14, ["", wrap], xs=xs)]
        rules += [(140, top + 11, 140 + 6 * len(name), top + 11), (140, top + 25, 140 + 6 * len(wrap), top + 25),
                  (40, top + 30, 560, top + 30)]
    [found] = find_tables(lines_of(header, *rows), TOLERANCE, None, sorted(rules, key=lambda r: r[1]))
    assert [(s.attributes["model"], s.attributes["product_name"]) for s in found.skus] == [
        ("TY-070-L", "LANDCRUISER ФАРА ЛЕВ С РЕШЕТК"), ("TY-070-R", "LANDCRUISER ФАРА ПРАВ С РЕШЕТК"),
        ("GE-640", "EMGRAND БАМПЕР ЗАДН (Китай)"), ("GE-450", "EMGRAND ЗЕРКАЛО ЛЕВ (Китай)")]


def test_a_lone_coded_row_under_a_group_heading_continues_the_table_a_totals_line_does_not():
    xs = (50, 140, 430)
    first = table(0, 60, [["Артикул", "Наименование", "Цена"], ["HN-460-L", "ACCENT СТЕКЛО", "140"],
                          ["HN-460-R", "ACCENT СТЕКЛО ПРАВ", "140"]], xs=xs)
    heading = stacked(5, 90, 160, "LEXUS")
    lone = cells(6, 200, ["LX57012-190", "LX570 РЕШЕТКА", "2227"], xs=xs)
    total = cells(7, 260, ["", "Итого", "2507"], xs=xs)
    assert models(tables_of(*first, heading, lone, total)) == ["HN-460-L", "HN-460-R", "LX57012-190"]


def test_a_bullion_list_prices_by_buy_and_sell_columns():
    xs = (50, 200, 260, 330, 420)
    rows = [["Prodotto", "Peso", "", "Compro", "Vendo"], ["Marengo Italiano", "6,45", "900", "412,00", "455,00"],
            ["Sterlina Elisabetta", "7,99", "916", "520,50", "575,00"], ["Krugerrand 1 oz", "33,93", "916", "2.350,00",
                                                                         "2.480,00"]]
    [found] = tables_of(*table(0, 100, rows, xs=xs))
    assert [(s.attributes["product_name"], s.attributes["price"]) for s in found.skus] == [
        ("Marengo Italiano", "412.00"), ("Sterlina Elisabetta", "520.50"), ("Krugerrand 1 oz", "2350.00")]


def test_a_header_set_on_overlapping_lines_names_every_column():
    """A header whose cells wrap onto lines set over each other: 'ОПТ 1' above, 'Наименование' and
    'РОЗНИЦА' a little lower, 'скидка 10%' lower still. All three are the header, so the retail
    column (named only on the middle line) is the price and the wholesale ones follow it."""
    xs = (50, 200, 280, 380)
    header = [block(0, [spanned(280, 99, "ОПТ 1"), spanned(380, 99, "ОПТ 2")]),
              block(1, [spanned(50, 106, "Наименование"), spanned(200, 106, "РОЗНИЦА")]),
              block(2, [spanned(280, 114, "скидка 10%"), spanned(380, 114, "скидка 15%")])]
    body = table(3, 140, [["Диск 0,25кг", "3,36", "3,03", "2,86"], ["Диск 0,5кг", "6,36", "5,72", "5,40"]], xs=xs)
    [found] = tables_of(*header, *body)
    assert [role.header for role in found.roles][:2] == ["Наименование", "РОЗНИЦА"]
    assert [(sku.attributes["product_name"], sku.attributes["price"]) for sku in found.skus] == [
        ("Диск 0,25кг", "3.36"), ("Диск 0,5кг", "6.36")]


def test_a_product_line_overlapping_the_header_with_its_price_stays_a_product():
    xs = (50, 200, 320)
    rows = [cells(0, 100, ["Name", "Brand", "Price"], xs=xs),
            cells(1, 108, ["Hull Melon Lager", "Chorlton", "3.00"], xs=xs),
            *table(2, 130, [["Schiehallion", "Harviestoun", "2.50"]], xs=xs)]
    [found] = tables_of(*rows)
    assert [sku.attributes.get("price") for sku in found.skus] == ["3.00", "2.50"]


def test_a_header_repeated_word_for_word_is_two_tables_side_by_side():
    """Two price lists set side by side under one header line printed twice, a family heading over
    each: every row holds two products, each priced by its own part's retail column."""
    xs = (20, 80, 140, 170, 240, 300, 360, 420, 450, 520)
    header = ["Продукт", "Единица", "PV", "Retail (€)", "Whls (€)"] * 2
    rows = [header, ["On Guard", "", "", "", "", "Accessory", "", "", "", ""],
            ["Cleaner", "355 ml", "14.5", "28.00", "21.00", "Roller", "6 Pack", "0", "7.67", "5.75"],
            ["Hand Wash", "473 ml", "18", "31.33", "23.50", "Stickers", "1 Sheet", "0", "0.67", "0.50"]]
    found = tables_of(*table(0, 100, rows, xs=xs))
    assert sorted((sku.attributes["product_name"], sku.attributes["price"]) for t in found for sku in t.skus) == [
        ("Cleaner", "28.00"), ("Hand Wash", "31.33"), ("Roller", "7.67"), ("Stickers", "0.67")]


def test_rules_around_sections_of_a_price_list_group_its_rows_they_do_not_merge_them():
    xs = (160, 410)
    drinks = [["Thé", "0,50€"], ["Café", "0,50€"], ["Jus d'orange", "0,50€"], ["Orangina", "1,00€"]]
    snacks = [["Smarties", "0,60€"], ["Gaufres", "0,60€"], ["Kinder Bueno", "0,70€"]]
    meals = [["Aiki", "1,80€"], ["Pizza", "3,00€"]]
    blocks = [*table(0, 100, drinks, xs=xs), cells(9, 180, ["Snacks"], xs=xs), *table(10, 204, snacks, xs=xs),
              cells(19, 264, ["Repas"], xs=xs), *table(20, 288, meals, xs=xs)]
    rules = [(150.0, y, 440.0, y) for y in (96, 176, 198, 260, 282, 322)]  # each section ruled above and below
    found = find_tables(lines_of(*blocks), TOLERANCE, None, rules)
    assert [(s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus] == [
        (name, price.replace(",", ".").rstrip("€")) for name, price in drinks + snacks + meals]


def test_side_by_side_menus_print_names_beside_bare_round_prices_with_translations_under_them():
    xs = (60, 180, 205, 285, 400, 425)
    rows = [["紅茶", "25", "30", "奶茶", "40", "45"], ["Black", "", "", "Milk", "", ""],
            ["綠茶", "25", "30", "珍珠奶茶#", "50", "55"], ["Green", "", "", "Pearl", "", ""],
            ["春烏龍#", "30", "35", "紅茶鮮奶", "50", "60"], ["Spring", "", "", "Latte", "", ""],
            ["輕烏龍", "30", "35", "抹茶鮮奶", "65", "75"], ["Light", "", "", "Matcha", "", ""],
            ["焙烏龍", "30", "35", "芒果綠茶", "55", "65"], ["Dark", "", "", "Mango", "", ""],
            ["檸檬綠茶", "45", "55"], ["Lemon", "", ""]]
    found = tables_of(*table(0, 100, rows, xs=xs, pitch=14))
    assert sorted((s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus) == sorted([
        ("紅茶", "25"), ("綠茶", "25"), ("春烏龍", "30"), ("輕烏龍", "30"), ("焙烏龍", "30"), ("檸檬綠茶", "45"),
        ("奶茶", "40"), ("珍珠奶茶", "50"), ("紅茶鮮奶", "50"), ("抹茶鮮奶", "65"), ("芒果綠茶", "55")])


def test_a_translations_word_straying_into_the_amounts_column_does_not_unmake_the_menus_first_price():
    """'Sugar Cane Spring Oolong' runs on, its 'Tea' set under the M prices: a line without a number."""
    xs = (60, 180, 205)
    rows = [["紅茶", "25", "30"], ["Black Tea", "", ""], ["綠茶", "25", "30"], ["Green Tea", "", ""],
            ["甘蔗春烏龍", "55", "65"], ["Sugar Cane Oolong", "Tea", ""], ["青梅春烏龍", "50", "60"],
            ["Green Plum Oolong", "Tea", ""], ["優酪春烏龍", "50", "60"], ["Yogurt Oolong Tea", "", ""],
            ["百香果綠茶", "45", "55"], ["Passion Fruit Tea", "", ""]]
    found = tables_of(*table(0, 100, rows, xs=xs, pitch=14))
    assert [(s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus] == [
        ("紅茶", "25"), ("綠茶", "25"), ("甘蔗春烏龍", "55"), ("青梅春烏龍", "50"), ("優酪春烏龍", "50"),
        ("百香果綠茶", "45")]


def test_a_menu_priced_to_the_cent_per_size_between_bars_gives_each_dish_its_first_price():
    """'MARINARA | 2,00| 5,00| 7,00| 12,00' for four sizes, with no header and no currency."""
    dishes = [("MARINARA", "4,50"), ("MARGHERITA", "3,00"), ("GRECA", "6,00"), ("CIPOLLE", "4,50"),
              ("NAPOLETANA", "5,50"), ("VIENNESE", "3,50")]
    rows = [[name, f"{price}| 7,50| 13,00| 16,50"] for name, price in dishes]
    found = tables_of(*table(0, 100, rows, xs=(60, 250), pitch=14))
    assert [(s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus] == [
        (name, price.replace(",", ".")) for name, price in dishes]


def test_names_beside_measures_to_the_hundredth_are_no_menu():
    rows = [["Pitch", "2.54"], ["Half pitch", "1.27"], ["Lead", "3.18"], ["Pad", "0.64"], ["Gap", "2.11"],
            ["Body", "1.93"]]
    assert tables_of(*table(0, 100, rows, xs=(60, 300))) == []


def test_product_cards_side_by_side_with_the_price_over_the_name_are_read_column_by_column():
    """A shop's poster: each card prints its prices (by the box and by the case), its name and its pack."""
    rows = [["2元/盒,28元/箱", "2元/盒,28元/箱", "4元/瓶,53元/箱"], ["蜂蜜柚子茶", "天喔苹果汁", "石榴汁"],
            ["(250mL×16)", "(250mL×16)", "(500mL×15)"]]
    found = tables_of(*table(0, 100, rows, xs=(60, 200, 340), pitch=16))
    assert [(s.attributes["product_name"], s.attributes["price"], s.attributes["size"]) for t in found
            for s in t.skus] == [("蜂蜜柚子茶", "2", "(250mL×16)"), ("天喔苹果汁", "2", "(250mL×16)"),
                                 ("石榴汁", "4", "(500mL×15)")]
    rows = [["苹果", "¥5"], ["香蕉", "¥3"], ["葡萄", "¥9"]]  # names beside their prices: read by rows
    assert [(s.attributes["product_name"], s.attributes["price"]) for t in tables_of(*table(0, 100, rows, xs=(60, 150)))
            for s in t.skus] == [("苹果", "5"), ("香蕉", "3"), ("葡萄", "9")]


def test_a_title_set_letter_by_letter_over_a_menu_does_not_hide_its_columns():
    """'H U I C H A P U', each letter a box of its own, fills eight columns over a menu of two."""
    xs = (60, 90, 120, 150, 180, 210, 240, 270)
    drinks = [("珍珠奶茶", "11.00"), ("紫苏奶茶", "10.00"), ("柠檬橙茶", "12.00"), ("薄荷牛奶", "11.00"),
              ("芒果冰", "14.00")]
    rows = [list("HUICHAPU"), *([name, "", "", "", "", "", "", f"{price} 13.00"] for name, price in drinks)]
    found = tables_of(*table(0, 100, rows, xs=xs, pitch=16))
    assert [(s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus] == drinks


def test_tables_of_unequal_widths_side_by_side_are_parted_where_their_own_rules_end():
    """A fee list's blocks: 'room | fee | note' beside 'equipment | count | fee', each ruled across
    its own width under every row, a gutter between them and a title bar over both."""
    rooms = [("楽屋 A", "¥6,600", "個室"), ("楽屋 B", "¥2,200", "個室小"), ("楽屋 C", "¥3,300", "大部屋"),
             ("応接室", "¥3,300", "個室")]
    gear = [("譜面台", "1台", "¥165"), ("ピアノ椅子", "1台", "¥770"), ("指揮台", "1台", "¥5,500"),
            ("長机", "1台", "¥1,100")]
    rows = [[*room, *item] for room, item in zip(rooms, gear, strict=True)]
    rules = [(55.0, y, 250.0, y) for y in (98, 118, 138, 158, 178)] + [
        (265.0, y, 470.0, y) for y in (98, 118, 138, 158, 178)] + [(55.0, 96, 470.0, 96)]
    found = find_tables(lines_of(*table(0, 100, rows, xs=(60, 130, 190, 270, 350, 410))), TOLERANCE, None, rules)
    assert sorted((s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus) == sorted(
        [(name, fee.lstrip("¥").replace(",", "")) for name, fee, _ in rooms]
        + [(name, fee.lstrip("¥").replace(",", "")) for name, _, fee in gear])


def test_names_beside_rising_numbers_are_no_menu():
    xs = (60, 300)
    rows = [["概述", "3"], ["安装", "7"], ["接线", "12"], ["调试", "18"], ["维护", "25"], ["附录", "30"]]
    assert tables_of(*table(0, 100, rows, xs=xs)) == []  # a contents page: its numbers run up


def test_side_by_side_menus_keep_their_parts_over_a_legend_printed_under_them():
    """A legend under the menus ('少糖 | 全糖 | 去冰 | 微冰') fills the price columns' last rows and a
    column of its own: the menus are still two, each priced by its first price column."""
    xs = (60, 180, 205, 240, 285, 400, 425)
    rows = [["紅茶", "30", "35", "", "奶茶", "40", "55"], ["綠茶", "30", "35", "", "奶綠", "40", "55"],
            ["春烏龍", "35", "45", "", "珍珠奶茶", "45", "60"], ["輕烏龍", "35", "45", "", "波霸奶茶", "45", "60"],
            ["焙烏龍", "40", "55", "", "布丁奶茶", "50", "65"], ["冬瓜茶", "40", "55", "", "可可", "50", "65"],
            ["", "少糖", "全糖", "去冰", "", "微冰", "少冰"], ["", "70%", "100%", "0%", "", "40%", "70%"]]
    found = tables_of(*table(0, 100, rows, xs=xs, pitch=14))
    priced = sorted((s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus)
    assert priced == sorted([(row[0], row[1]) for row in rows[:6]] + [(row[4], row[5]) for row in rows[:6]])


def test_footnote_marks_after_a_code_are_not_part_of_it_and_an_empty_price_takes_the_next_printed():
    rows = [["Item", "Description", "Frame", "Cushion A"],
            ["GV52*", "52 Rd. Dining Table", "$2,580", ""],
            ["AZ15*†", "Dining Armchair", "$1,121", "$1,258"],
            ["AM25", "Club Chair", "", "$1,833"]]
    [found] = tables_of(*table(0, 100, rows))
    assert [(s.attributes["model"], s.attributes.get("price")) for s in found.skus] == [
        ("GV52", "2580"), ("AZ15", "1121"), ("AM25", "1833")]


def test_a_family_name_before_the_first_code_of_its_group_is_not_part_of_the_code():
    column = ColumnRole("model", "Item")
    assert [model_of(t, column)[0] for t in ("Amalfi AM15", "Adirondack - AK25VT", "AM50")] == [
        ["AM15"], ["AK25VT"], ["AM50"]]
    assert model_of("SMA STP 10000TL-20", column)[0] == ["SMA STP 10000TL-20"]  # a designation in capitals


def test_header_cells_run_together_on_one_line_are_split_over_their_columns():
    """Narrow spreadsheet cells whose text overflows: 'кол-во', 'вес ш' and 'Цена руб\\шт' read as one line."""
    header = block(0, [spanned(50, 100, "Наименование"), spanned(200, 100, "кол-вовес шЦена руб\\шт")])
    rows = [cells(n + 1, 120 + 20 * n, [name, qty, weight, price], xs=(50, 200, 240, 300))
            for n, (name, qty, weight, price) in enumerate([("Палец звена", "224", "0.184", "130"),
                                                            ("Втулка звена", "224", "0.085", "110"),
                                                            ("Зуб ковша", "100", "0.388", "130")])]
    [found] = tables_of(header, *rows)
    assert [r.header for r in found.roles] == ["Наименование", "кол-вовес", "шЦена", "руб\\шт"]
    group = block(0, [spanned(200, 86, "Данные о товаре"), spanned(50, 100, "Наименование"),
                      spanned(200, 100, "Кол"), spanned(240, 100, "Вес"), spanned(300, 100, "Цена")])
    [grouped] = tables_of(group, *rows)  # a group header above its columns heads each of them
    assert [r.header for r in grouped.roles[1:3]] == ["Данные о товаре\nКол", "Данные о товаре\nВес"]


def test_a_row_priced_only_in_a_later_price_column_is_a_product_and_a_section_title_under_the_header_is_not_its_name():
    """Green-coffee tiers: some lots sell by the kilo only. The country bar under the header row
    heads no column."""
    rows = [["품명", "현황", "20Kg", "5Kg", "1Kg"], ["Brazil 브라질", "", "", "", ""],
            ["세하도★20KG세일★", "SALE", "13500", "", "13,600"],
            ["모지아나", "BEST", "14900", "14900", "14,900"], ["레드버번", "BEST", "14900", "14900", "14,900"],
            ["옐로우버번", "BEST", "17500", "17800", "18,000"],
            ["아구이아", "NEW", "", "", "27,500"]]
    [found] = tables_of(*table(0, 100, rows, xs=(50, 200, 260, 320, 380)))
    assert [(s.attributes["product_name"], s.attributes["price"]) for s in found.skus] == [
        ("세하도★20KG세일★", "13500"), ("모지아나", "14900"), ("레드버번", "14900"), ("옐로우버번", "17500"),
        ("아구이아", "27500")]


def _menu_row(i, y, *items):
    """A row of side-by-side menus: each (x, name, right, amount) sets the amount right-aligned at
    ``right``, as close after the longest name as a price board prints it."""
    return block(i, [line for x, name, right, amount in items
                     for line in (spanned(x, y, name), spanned(right - 6 * len(amount), y, amount))])


def test_side_by_side_menus_priced_to_the_unit_with_amounts_set_close_after_the_names():
    """A bakery's board: '鮮肉包 19 | 白饅頭 12', under titles naming a category, the amounts set so
    close after the longest names that no gutter opens. Repeating names and amounts side by side are
    a menu even though its prices are not round."""
    left = [("鮮肉包", "19"), ("高麗菜包", "17"), ("紅豆沙包", "17"), ("黑糖包", "22"), ("蛋黃肉包", "27")]
    right = [("白饅頭", "12"), ("黑糖饅頭", "12"), ("山東饅頭", "110"), ("蔥花捲饅頭", "17"), ("黑糖乳酪饅頭", "13")]
    titles = block(0, [spanned(50, 100, "包子類"), spanned(200, 100, "饅頭類")])
    rows = [_menu_row(n + 1, 120 + 14 * n, (50, a, 110, pa), (200, b, 257, pb))
            for n, ((a, pa), (b, pb)) in enumerate(zip(left, right, strict=True))]
    found = tables_of(titles, *rows)
    assert sorted((s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus) == sorted(
        left + right)


def _heading(i, x, y, text):
    return block(i, [spanned(x, y, text, size=20, height=25)])


def _priced(first, x, y, rows, price_x):
    return [block(first + n, [spanned(x, y + 23 * n, name), spanned(price_x, y + 23 * n, price)])
            for n, (name, price) in enumerate(rows)]


def test_side_by_side_price_lists_set_at_their_own_heights_each_read_their_own_rows():
    """Two columns of price lists under headings: sizes alone ('1M | $412.00') on the left, names
    ('Lisa | $520.00') on the right. The sizes are what the left lists sell; a heading of one list,
    set level with a row of the other, joins no row of either."""
    sizes = [("1M", "$412.00"), ("1.5M", "$459.00"), ("2M", "$572.00"), ("2.5M", "$644.00")]
    names = [("Lisa", "$520.00"), ("Seda", "$613.00"), ("Oro y Plata", "$728.00"), ("Diacono", "$483.00"),
             ("Bicolor Seda", "$395.00")]
    left = [_heading(0, 40, 75, "Manteles en hilo de Seda"), *_priced(1, 100, 110, sizes, 180),
            _heading(10, 40, 209, "Manteles en hilo de Oro y Plata"), *_priced(11, 100, 255, sizes, 180)]
    right = [_heading(20, 440, 75, "Albas"), *_priced(21, 400, 112, names[:3], 510),
             _heading(30, 440, 205, "Estolas"), *_priced(31, 400, 257, names[3:], 510)]
    found = tables_of(*left, *right)
    read = sorted((s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus)
    assert read == sorted([(a, b[1:]) for a, b in sizes * 2 + names])


def test_names_beside_amounts_not_round_in_one_list_are_no_menu():
    rows = [["铜", "63"], ["铝", "27"], ["铁", "56"], ["锌", "31"], ["锡", "52"], ["铅", "82"]]
    assert tables_of(*table(0, 100, rows, xs=(60, 300))) == []  # nothing repeats beside it to say 'menu'


def test_names_numbered_as_a_lists_lines_lose_their_numbers():
    """'1.香茅檸檬鍋 $100' beside '菜盤 $150': the list's numbers are no part of its names; the
    currency marks the amounts as prices."""
    rows = [["1.香茅檸檬鍋", "$100", "菜盤", "$150"], ["2.川味麻辣鍋", "$100", "白飯", "$10"],
            ["3.泡菜部隊鍋", "$140", "冬粉", "$10"], ["4.韓式泡菜鍋", "$90", "韓國拉麵", "$30"]]
    found = tables_of(*table(0, 100, rows, xs=(50, 140, 220, 300), pitch=14))
    assert sorted((s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus) == sorted([
        ("香茅檸檬鍋", "100"), ("川味麻辣鍋", "100"), ("泡菜部隊鍋", "140"), ("韓式泡菜鍋", "90"),
        ("菜盤", "150"), ("白飯", "10"), ("冬粉", "10"), ("韓國拉麵", "30")])


def test_side_by_side_tables_split_when_the_last_lost_a_column_into_its_neighbour():
    """'PRODUCTO | PRECIO | PAQUETES' twice, but the right table's packs ran into its prices (no
    gutter), so it shows two columns: the parts still repeat, the last one shorter."""
    rows = [["PRODUCTO", "PRECIO", "PAQUETES", "PRODUCTO", "PRECIO"],
            ["Orejas", "0.60", "PAQx6", "Pan hamburguesa", "2.10"],
            ["Cañon", "0.60", "", "Pan hot dog", "2.50"], ["Empanada", "0.65", "", "Donas", "0.50"]]
    found = tables_of(*table(0, 100, rows, xs=(20, 120, 180, 280, 400)))
    assert sorted((s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus) == [
        ("Cañon", "0.60"), ("Donas", "0.50"), ("Empanada", "0.65"), ("Orejas", "0.60"), ("Pan hamburguesa", "2.10"),
        ("Pan hot dog", "2.50")]


def test_a_header_centred_over_narrow_amounts_but_over_no_column_heads_the_nearest():
    """'PRECIO' printed left of the right-set amounts ('60', '120') it heads: no column lies under it,
    but the amounts' column reaches to the middle of the gutter, which holds the header's middle."""
    header = block(0, [spanned(20, 80, "PRODUCTO"), spanned(108, 80, "PRECIO")])  # 108-144, amounts at 140-158
    rows = [cells(n + 1, 100 + 20 * n, [name, amount], xs=(20, 158 - 6 * len(amount)))
            for n, (name, amount) in enumerate([("Orejas", "60"), ("Herraduras", "65"), ("Cañon", "120")])]
    found = tables_of(header, *rows)
    assert [(s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus] == [
        ("Orejas", "60"), ("Herraduras", "65"), ("Cañon", "120")]


def test_records_of_lines_that_touch_set_apart_by_blank_space_are_one_row_each():
    """A repair price list: each record prints its name, the price set between its two lines, and
    the English name, all touching; a blank line parts the records."""
    header = cells(0, 60, ["維修項目", "價格", "備註"], xs=(50, 200, 300))
    records = []
    for n, (name, english, price) in enumerate([("拉桿", "Trolley", "600"), ("主把手", "Handle", "300"),
                                                 ("側把手", "Side", "300"), ("海關鎖", "Lock", "350")]):
        top = 100 + 50 * n
        records += [cells(3 * n + 1, top, [f"{n + 1:02d}.{name}", "每組"], xs=(50, 300)),
                    cells(3 * n + 2, top + 8, [f"NT {price}"], xs=(200,)),
                    cells(3 * n + 3, top + 16, [english, "1Set"], xs=(50, 300))]
    found = tables_of(header, *records)
    assert [(s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus] == [
        ("拉桿 Trolley", "600"), ("主把手 Handle", "300"), ("側把手 Side", "300"), ("海關鎖 Lock", "350")]


def test_a_code_stacked_under_a_position_number_is_read_under_its_header_line():
    """An offer's 'Position' over 'Artikel': each row prints 'POS 4910' over its article code, and the
    code is the model, not the position before it; under that header a word in capitals is a code too."""
    header = [cells(0, 60, ["Position", "Menge", "E-Preis"], xs=(40, 300, 420)), cells(1, 72, ["Artikel"], xs=(40,))]
    rows = []
    for n, (code, name, price) in enumerate([("WSZRELA0101", "Rohrverbindungsset", "2349,40"),
                                             ("RMPS2000", "Pufferspeicher", "3971,20"),
                                             ("RMPS2000K", "Pufferspeicher K", "5909,20"),
                                             ("RSMW", "Smart-Web", "134,64")]):
        top = 90 + 60 * n
        rows += [cells(3 * n + 2, top, [f"POS {4910 + 10 * n}"], xs=(40,)),
                 cells(3 * n + 3, top + 12, [code, name, "2,000 ST", price], xs=(40, 120, 300, 420))]
    found = tables_of(*header, *rows)
    assert [(s.attributes["model"], s.attributes["price"]) for t in found for s in t.skus] == [
        ("WSZRELA0101", "2349.40"), ("RMPS2000", "3971.20"), ("RMPS2000K", "5909.20"), ("RSMW", "134.64")]


def test_a_word_in_capitals_under_a_header_naming_the_code_is_a_code_only_in_a_priced_row():
    rows = [["Art.-Nr.", "Bezeichnung", "Preis"], ["RSMW", "Smart-Web", "134,64"], ["MUFFLE", "STAND", ""],
            ["RSCWMZ", "Smart-Count", "217,60"], ["AB-100", "Boat", "12,00"]]
    assert models([tables_of(*table(0, 100, rows, xs=(40, 160, 400)))[0]]) == ["RSMW", "RSCWMZ", "AB-100"]


def test_side_by_side_lists_under_one_header_whose_first_column_names_each_lists_kind():
    """'PRETO | VALORES | C/100 UN' beside 'CORES | VALORES | C/100 UN': the same header but for the
    kind each list holds, black bags and coloured ones; the longer list's rows below the shorter
    one's end are rows of their own."""
    left = [("Saco 20 lts", "10,80"), ("Saco 20 lts forte", "16,40"), ("Saco 40 lts", "19,00"),
            ("Saco 40 lts forte", "25,00"), ("Saco 60 lts", "25,00")]
    right = [("Saco azul 20 lts", "12,60"), ("Saco verde 20 lts", "20,20"), ("Saco azul 40 lts", "29,80")]
    rows = [["PRETO", "VALORES", "CENTO", "CORES", "VALORES", "CENTO"],
            *([a, "R$", pa, *((right[n][0], "R$", right[n][1]) if n < len(right) else ("", "", ""))]
              for n, (a, pa) in enumerate(left))]
    found = tables_of(*table(0, 100, rows, xs=(40, 160, 200, 300, 410, 460), pitch=16))
    assert sorted((s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus) == sorted(
        (name, price.replace(",", ".")) for name, price in left + right)


def test_rows_set_far_apart_but_cell_under_cell_are_one_table():
    rows = [["1", "玻璃杯", "300ml", "¥8.50"], ["2", "马克杯", "350ml", "¥9.50"], ["3", "保温杯", "500ml", "¥39.00"]]
    found = tables_of(*table(0, 100, [["No.", "品名", "规格", "价格"], rows[0]]), *table(5, 200, rows[1:], pitch=80))
    names = [(s.attributes.get("product_name"), s.attributes.get("price")) for t in found for s in t.skus]
    assert names == [("玻璃杯", "8.50"), ("马克杯", "9.50"), ("保温杯", "39.00")]


def test_a_header_wrapped_onto_staggered_lines_names_the_columns():
    header = block(0, [spanned(140, 100, "Hortum"), spanned(430, 100, "Fiyat"), spanned(50, 108, "Malzeme Kodu"),
                       spanned(140, 116, "Ölçüsü"), spanned(430, 116, "[TL]")])
    rows = [["RK-133007-FLD", "1/2", "30,2", "181,83"], ["RK-133807-FLD", "1/2", "38,1", "181,83"],
            ["RK-163807-FLD", "5/8", "38,1", "181,83"]]
    found = tables_of(header, *table(1, 126, rows))
    assert models(found) == ["RK-133007-FLD", "RK-133807-FLD", "RK-163807-FLD"]
    assert not found[0].inferred and found[0].roles[0].role == "model"


def test_a_table_beside_another_that_starts_lower_is_read_under_its_own_header():
    left = [["Part No.", "Price"], *[[f"AB-{n:03d}", f"${n}.50"] for n in range(1, 7)]]
    right = [["Part No.", "Price"], *[[f"XZ-{n:03d}", f"${n + 10}.00"] for n in range(1, 4)]]
    found = tables_of(*table(0, 100, left, xs=(50, 160)), *table(20, 160, right, xs=(300, 410)))
    prices = {s.attributes.get("model"): s.attributes.get("price") for t in found for s in t.skus}
    assert prices == {**{f"AB-{n:03d}": f"{n}.50" for n in range(1, 7)},
                      **{f"XZ-{n:03d}": f"{n + 10}.00" for n in range(1, 4)}}


def test_part_numbers_broken_after_their_dash_head_a_comparison_tables_columns():
    rows = [["Part Number", "HC32L136K8TA-", "HC32L136J8TA-", "HC32L130E8PA-"], ["", "LQFP64", "LQ48", "TSSOP28"],
            ["Flash", "64K", "64K", "64K"], ["RAM", "8K", "8K", "8K"], ["UART", "2", "2", "2"]]
    found = tables_of(*table(0, 100, rows, xs=(50, 160, 300, 440)))
    assert models(found) == ["HC32L136K8TA-LQFP64", "HC32L136J8TA-LQ48", "HC32L130E8PA-TSSOP28"]


def test_a_header_under_a_letterhead_of_five_lines_still_heads_the_table():
    """An address, phone numbers, a title and a date over the header row: none prints a code or two
    amounts, so the header is looked for past them."""
    letterhead = [["г. Владивосток, ул.", "Русская 65,", "оф. 17"], ["тел/факс (4232)", "49-94-71,", "24-30-52"],
                  ["ПРАЙС-ЛИСТ на продукцию", "со склада", "114"], ["", "", "01 июля 2024 г."], ["", "", "Цена с"]]
    rows = [*letterhead, ["НАИМЕНОВАНИЕ", "Вес 1 шт, кг", "НДС, руб."],
            ["Лист х/к 0,8х1250х2500", "20", "100000"], ["Лист г/к 2х1250х2500", "53", "86000"],
            ["Лист г/к 3х1250х2500", "77", "86000"]]
    found = tables_of(*table(0, 100, rows, xs=(20, 200, 300)))
    assert [(s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus] == [
        ("Лист х/к 0,8х1250х2500", "100000"), ("Лист г/к 2х1250х2500", "86000"), ("Лист г/к 3х1250х2500", "86000")]


def test_side_by_side_tables_keyed_by_name_split_though_one_prints_a_column_the_other_lacks():
    header = ["НАИМЕНОВАНИЕ", "Вес, кг", "Цена", "НАИМЕНОВАНИЕ", "Длина, м", "Вес, кг", "Цена"]
    rows = [header, ["Лист 2х1250", "53", "86000", "Угол 25х25х4", "9", "15", "95000"],
            ["Лист 3х1250", "77", "86000", "Угол 32х32х3", "6", "10", "99000"],
            ["Лист 4х1500", "290", "85000", "Угол 40х40х4", "12", "30", "87000"]]
    found = tables_of(*table(0, 100, rows, xs=(20, 110, 150, 220, 310, 350, 390)))
    assert sorted((s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus) == [
        ("Лист 2х1250", "86000"), ("Лист 3х1250", "86000"), ("Лист 4х1500", "85000"),
        ("Угол 25х25х4", "95000"), ("Угол 32х32х3", "99000"), ("Угол 40х40х4", "87000")]


def test_row_labels_printed_once_before_side_by_side_parts_headed_by_a_currency_belong_to_the_first():
    """'kW | Tip | USD | Tip | USD': the power heads the rows of all three parts; each part is a code
    and its price under a bare currency."""
    rows = [["kW", "Tip", "USD", "Tip", "USD"], ["11", "3MGS-160MA2", "899,00", "3MGS-160MA4", "1.006,00"],
            ["15", "3MGS-160MB2", "1.008,00", "3MGS-160LA4", "1.183,00"],
            ["18.5", "3MGS-160LA2", "1.110,00", "3MGS-180MA4", "1.366,00"]]
    found = tables_of(*table(0, 100, rows, xs=(20, 60, 160, 230, 330)))
    assert sorted((s.attributes["model"], s.attributes["price"]) for t in found for s in t.skus) == [
        ("3MGS-160LA2", "1110.00"), ("3MGS-160LA4", "1183.00"), ("3MGS-160MA2", "899.00"),
        ("3MGS-160MA4", "1006.00"), ("3MGS-160MB2", "1008.00"), ("3MGS-180MA4", "1366.00")]


def _section(first, y, heading, items, xs):
    """A price list's section: its heading, then rows of a name, a size and a price at ``xs``."""
    return [cells(first, y, [heading], xs=xs[:1]),
            *[cells(first + 1 + n, y + 16 * (n + 1), item, xs=xs) for n, item in enumerate(items)]]


def test_sections_of_a_list_typed_with_their_own_tab_stops_each_find_their_columns():
    """'Vodka Família | 0,04 l | 0,90 €' over 'Ostravar Mustang 11% | 0,5 l | 1,50 €' further right:
    the second section's sizes stand under the first's prices, so no gutter runs through both; each
    section under its heading finds its own columns."""
    spirits = [("Vodka Família", "0,04 l", "0,90€"), ("Vodka Absolut", "0,04 l", "1,20€"),
               ("Gin Klasik", "0,04 l", "0,90€"), ("Becherovka", "0,04 l", "1,20€")]
    beers = [("Ostravar Mustang 11%", "0,5 l", "1,50€"), ("Čierne pivo Barbora 13%", "0,3 l", "0,90€"),
             ("Staropramen 10% plech", "0,5 l", "1,30€"), ("Birel nealko plech", "0,5 l", "1,20€")]
    rows = [*_section(0, 100, "Alkohol", spirits, (20, 120, 170)),
            *_section(10, 200, "Pivo", beers, (20, 165, 215))]  # a blank line above each heading
    found = tables_of(*rows)
    assert sorted((s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus) == sorted(
        (name, price.removesuffix("€").replace(",", ".")) for name, _, price in spirits + beers)


def test_headerless_lists_side_by_side_of_different_widths_each_price_their_own_names():
    """'name | price' beside 'name | size | price', no header: each column of names starts a list."""
    rows = [["Espresso", "1,50€", "Kofola originál", "0,5 l", "1,50€"],
            ["Latte", "1,80€", "Sóda čapovaná", "0,1 l", "0,10€"],
            ["Cappuccino", "1,90€", "Vinea biela", "0,5 l", "1,60€"],
            ["Americano", "1,60€", "Tonic fľaša", "0,25 l", "0,70€"]]
    found = tables_of(*table(0, 100, rows, xs=(20, 120, 220, 330, 380)))
    assert sorted((s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus) == sorted(
        [(row[0], row[1][:-1].replace(",", ".")) for row in rows] + [(row[2], row[4][:-1].replace(",", "."))
                                                                      for row in rows])


def test_prices_go_to_the_names_nearest_left_of_them_past_another_lists_own_amounts():
    """Two headerless lists side by side, the left one's prices unreadable (here: not printed): the
    right list's prices price the right list's names, never the left one's."""
    rows = [["Vodka Família", "0,04 l", "Rizling vlašský", "0,50€"],
            ["Vodka Absolut", "0,04 l", "Veltlínske zelené", "8,00€"],
            ["Gin Klasik", "0,04 l", "Kláštorné červené", "5,00€"],
            ["Becherovka", "0,04 l", "Frankovka modrá", "8,50€"]]
    found = tables_of(*table(0, 100, rows, xs=(20, 120, 200, 320)))
    assert sorted((s.attributes["product_name"], s.attributes["price"]) for t in found for s in t.skus) == sorted(
        (row[2], row[3][:-1].replace(",", ".")) for row in rows)


def test_a_table_of_goods_headed_by_their_name_and_pack_lists_them_without_prices():
    """'НАИМЕНОВАНИЕ | УПАКОВКА | ФАСОВКА': names with what each is sold in, no code and no price."""
    rows = [["НАИМЕНОВАНИЕ", "УПАКОВКА", "ФАСОВКА"], ["Рис круглозерный", "ВОРР-пакет", "800г"],
            ["Крупа гречневая ядрица", "ВОРР-пакет", "800г"], ["Овсяные хлопья «Экстра»", "коробка", "1000г"]]
    found = tables_of(*table(0, 100, rows, xs=(20, 200, 300)))
    assert [s.attributes["product_name"] for t in found for s in t.skus] == [row[0] for row in rows[1:]]


def test_a_table_of_parameters_and_values_is_no_table_of_goods():
    rows = [["Наименование параметра", "Значение"], ["Напряжение питания", "220 В"], ["Мощность", "1,5 кВт"],
            ["Масса", "12 кг"]]
    assert tables_of(*table(0, 100, rows, xs=(20, 250))) == []


def test_codes_printed_alone_between_priced_rows_are_products_of_their_own():
    """Shaded rows of a motor list print their type and no price ('3MGS 280SA4 | -'): each is a product,
    neither a wrapped line of the priced row beside it nor a heading of the rows below."""
    rows = [("3MGS-250MA4", "3.476,00"), ("3MGS-280SA4", ""), ("3MGS-280MA4", ""), ("3MGS-355MA4", "13.797,00"),
            ("3MGS-355MB4", "16.174,00")]
    blocks = [cells(0, 100, ["kW", "Tip", "USD"], xs=(20, 60, 160))]
    for n, (code, price) in enumerate(rows):
        blocks.append(cells(n + 1, 116 + 14 * n, [code, price] if price else [code], xs=(60, 160)))
    found = tables_of(*blocks)
    assert [(s.attributes["model"], s.attributes.get("price")) for t in found for s in t.skus] == [
        ("3MGS-250MA4", "3476.00"), ("3MGS-280SA4", None), ("3MGS-280MA4", None), ("3MGS-355MA4", "13797.00"),
        ("3MGS-355MB4", "16174.00")]


def test_a_word_starting_every_code_of_a_column_is_their_series_not_a_code_listed_apart():
    """'3MGS 315SA4' in a column of '3MGS …' codes is one code, though '3MGS' and '315SA4' each look
    like a code and start alike."""
    column = ColumnRole("model", "Tip", {"model": 1.0})
    series = frozenset({"3MGS"})
    assert model_of("3MGS 315SA4", column, series=series) == (["3MGS 315SA4"], pytest.approx(0.75))
    assert model_of("3MGS 315SA4", column)[0] == ["3MGS", "315SA4"]  # without the column, two listed codes
    assert series_words(["3MGS 160MA2", "3MGS 315SA4", "3MGS 355LD2", "RMPS2000"]) == series
    assert series_words(["HM 1", "HM 2", "AB 3", "CD 4", "EF 5", "GH 6", "IJ 7"]) == frozenset()  # not most


def test_a_numbered_footnote_mark_after_a_code_and_a_callout_number_before_it_are_not_the_code():
    rows = [["型号", "名称", "价格"], ["TB-03-SCN ※1", "示教器", "¥1200"], ["①CB-TB3-C050", "电缆", "¥300"],
            ["TB-03-C", "控制器", "¥900"]]
    [found] = tables_of(*table(0, 100, rows))
    assert [s.attributes["model"] for s in found.skus] == ["TB-03-SCN", "CB-TB3-C050", "TB-03-C"]


def test_a_header_only_holding_a_names_term_does_not_make_a_spec_table_a_table_of_goods():
    """'产品目录编号' (a catalogue's number, in the letterhead) over '外形尺寸' and a product's specs."""
    rows = [["产品目录编号", "外形尺寸"], ["电源电压", "DC24V±10%"], ["消耗电流", "150mA"], ["使用温度", "0～40℃"]]
    assert tables_of(*table(0, 100, rows, xs=(20, 250))) == []
