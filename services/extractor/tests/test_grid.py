"""Tables from word geometry: cells, columns, blocks and the rows above them."""

from extractor_pages import block, lines_of, spanned, spanned_rtl, table

from skuflow_extractor.domain.grid import Cell, Grid, Row, cell_rows, columns_of, grids_of, split_at_header
from skuflow_extractor.domain.tables import find_tables
from skuflow_extractor.domain.words import Word

TOLERANCE = 4.0


def test_numbers_set_close_together_are_separate_cells_but_a_grouped_amount_is_one():
    numbers = [spanned(50, 100, "512"), spanned(76, 100, "512"), spanned(102, 100, "256"), spanned(200, 100, "32"),
               spanned(214, 100, "400")]  # 8 points between the three numbers, 2 inside the amount
    [row] = cell_rows(lines_of(block(0, numbers)), TOLERANCE)
    assert [cell.text for cell in row.cells] == ["512", "512", "256", "32 400"]


def test_a_closing_bracket_past_a_gutter_stays_with_the_phrase_it_closes():
    """'Bánh san hô ( gai )' ends a little right of its column: its ')' would fall into the next one."""
    spots = [("Bánh", 58, 80), ("(", 111, 114), ("gai", 117, 129), (")", 131, 134), ("100", 155, 169)]
    words = tuple(Word(text, (left, 415, right, 425), 0) for text, left, right in spots)
    row = Row((Cell("Bánh ( gai )", (58, 415, 134, 425), words[:4]), Cell("100", (155, 415, 169, 425), words[4:])),
              frozenset({0}), 10)
    grid = Grid((row,), ((72, 121), (143, 181)))
    assert grid.texts(row) == ["Bánh ( gai )", "100"]
    loose = Row((Cell(")", (131, 415, 134, 425), words[3:4]),), frozenset({0}), 10)
    assert grid.texts(loose) == ["", ")"]  # a mark alone closes nothing: it stays where it stands


def test_a_table_in_a_right_to_left_script_has_its_columns():
    """Persian cells, their characters listed from the right (a Persian catalogue once crashed here)."""
    rows = [block(n, [spanned_rtl(right, 100 + 20 * n, text) for right, text in
                      ((480, name), (330, "كيلوگرم"), (180, f"{n}00"))])
            for n, name in enumerate(["فيلتر", "روتاری", "ظرفيت", "كمپرسور"], start=1)]
    [grid] = grids_of(lines_of(*rows), TOLERANCE)
    assert len(grid.columns) == 3


def test_a_title_across_the_table_does_not_join_its_columns():
    rows = table(0, 100, [["A-100", "Mug", "¥8"], ["A-200", "Cup", "¥9"], ["A-300", "Bowl", "¥7"]],
                 xs=(50, 200, 400))
    title = block(9, [spanned(50, 60, "Kitchen collection 2024, prices without VAT, all sizes")])
    [grid] = grids_of(lines_of(title, *rows), TOLERANCE)
    assert len(grid.columns) == 3


def test_merged_cells_of_spec_rows_do_not_join_the_columns_full_rows_define():
    full = [["Flash", "512", "256", "128"], ["Pins", "100", "64", "48"], ["GPIO", "83", "52", "38"]]
    rows = table(0, 100, full, xs=(50, 200, 300, 400))
    merged = block(9, [spanned(50, 160, "Temp"), spanned(210, 160, "-40 to 105 C all parts")])
    assert len(columns_of(cell_rows(lines_of(*rows, merged), TOLERANCE))) == 4


def test_a_header_one_row_pitch_above_the_first_row_is_found():
    rows = table(0, 100, [["Model", "Price"], ["A-100", "¥8"], ["A-200", "¥9"]], xs=(50, 200), pitch=30)
    [found] = find_tables(lines_of(*rows), TOLERANCE, None)
    assert [role for role, *_ in found.header.columns] == ["model", "price"]


def test_a_comparison_table_with_one_product_per_column_gives_one_sku_per_column():
    rows = table(0, 100, [["功能", "HC32F4", "HC32F4", "HC32F4"], ["", "60PEHB", "60PETB", "60KETA"],
                          ["封装", "VFBGA", "LQFP", "LQFP"], ["引脚数", "100", "100", "64"]], xs=(50, 200, 300, 400),
                 pitch=14)
    [found] = find_tables(lines_of(*rows), TOLERANCE, None)
    assert [sku.attributes["model"] for sku in found.skus] == ["HC32F460PEHB", "HC32F460PETB", "HC32F460KETA"]
    assert found.skus[2].custom == {"引脚数": "64", "封装": "LQFP"}


def test_a_comparison_head_may_set_two_whole_part_numbers_side_by_side_with_footnote_marks():
    rows = table(0, 100, [["", "N32G430F6S7 N32G430F8S7", "N32G430", "N32G430", "N32G430"],
                          ["器件型号", "", "", "", ""],
                          ["", "N32G430F6S7-1(1) N32G430F8S7-1(1)", "F6Q7", "F8Q7", "G6Q7"],
                          ["Flash容量(KB)", "32 64", "32", "64", "32"]], xs=(40, 130, 340, 410, 480), pitch=12)
    [found] = find_tables(lines_of(*rows), TOLERANCE, None)
    assert [sku.attributes["model"] for sku in found.skus] == [
        "N32G430F6S7", "N32G430F8S7", "N32G430F6S7-1", "N32G430F8S7-1", "N32G430F6Q7", "N32G430F8Q7", "N32G430G6Q7"]


def test_the_line_a_tables_last_row_wraps_into_stays_in_the_table_but_a_note_under_it_does_not():
    rows = table(0, 100, [["系列", "型号"], ["N32G430x6", "N32G430C6Q7，N32G430K6Q7，N32G430G6Q7，"]], xs=(50, 150))
    wrapped = block(5, [spanned(150, 131, "N32G430F6S7，N32G430F6S7-1")])
    note = block(6, [spanned(50, 131, "以上型号均为工业级")])
    [found] = find_tables(lines_of(*rows, wrapped), TOLERANCE, None)
    assert [sku.attributes["model"] for sku in found.skus] == [
        "N32G430C6Q7", "N32G430K6Q7", "N32G430G6Q7", "N32G430F6S7", "N32G430F6S7-1"]
    [found] = find_tables(lines_of(*rows, note), TOLERANCE, None)
    assert [sku.attributes["model"] for sku in found.skus] == ["N32G430C6Q7", "N32G430K6Q7", "N32G430G6Q7"]


def test_codes_listed_in_one_cell_are_one_sku_each_and_a_one_cell_row_is_a_section_heading():
    rows = table(0, 100, [["系列", "型号", "封装"], ["", "Mugs", ""], ["N32G430", "N32G430C6L7,N32G430K6L7", "LQFP48"],
                          ["N32G432", "N32G432C8L7", "QFN32"]], xs=(50, 150, 400))
    [found] = find_tables(lines_of(*rows), TOLERANCE, None)
    assert [sku.attributes["model"] for sku in found.skus] == ["N32G430C6L7", "N32G430K6L7", "N32G432C8L7"]


def test_a_code_list_wrapped_over_lines_loses_its_comma_but_not_its_codes():
    rows = table(0, 100, [["系列", "型号", "封装"], ["N32G430", "N32G430K8L7 N32G430C8Q7", "LQFP48"],
                          ["N32G432", "HTPA15S2M040- K-P3", "QFN32"], ["H3", "H3 Pro-20.0-E", "QFN32"]],
                 xs=(50, 150, 400))
    [found] = find_tables(lines_of(*rows), TOLERANCE, None)
    assert [sku.attributes["model"] for sku in found.skus] == [
        "N32G430K8L7", "N32G430C8Q7", "HTPA15S2M040- K-P3", "H3 Pro-20.0-E"]  # a series apart, not two codes


def test_a_code_going_on_after_a_space_with_another_start_is_one_code_not_two_listed():
    rows = table(0, 100, [["系列", "型号", "封装"], ["SHROUD", "NN-LLED-SHROUD-5D-1.5 INCH-RGB-SD1", "RGB"],
                          ["SHROUD", "NN-LLED-SHROUD-5D-H4-RGB-SD1S", "RGB"]], xs=(50, 150, 400))
    [found] = find_tables(lines_of(*rows), TOLERANCE, None)
    assert [sku.attributes["model"] for sku in found.skus] == [
        "NN-LLED-SHROUD-5D-1.5 INCH-RGB-SD1", "NN-LLED-SHROUD-5D-H4-RGB-SD1S"]


def test_a_lone_heading_over_a_list_of_features_is_not_a_table_of_products():
    features = [["- 系统主频144MHz", "2 组运放"], ["- 128B 用户自定义信息存储区", "4 组定时器"],
                ["- 内嵌40KHz 的RC 振荡器", "3 个串口"]]
    rows = table(0, 100, [["产品特性", ""], *features], xs=(50, 300))
    assert [sku for t in find_tables(lines_of(*rows), TOLERANCE, None) for sku in t.skus] == []


def test_product_cards_side_by_side_are_read_one_per_column_with_the_name_below_the_code():
    rows = table(0, 100, [["IPT-004180", "IPT-004181", "IPT-004188"], ["Portapapeles", "Marcador", "Borrador"],
                          ["2.50$", "3.10$", "7.10$"]], xs=(30, 215, 400))
    [found] = find_tables(lines_of(*rows), TOLERANCE, None)
    assert [(s.attributes["model"], s.attributes["product_name"]) for s in found.skus] == [
        ("IPT-004180", "Portapapeles"), ("IPT-004181", "Marcador"), ("IPT-004188", "Borrador")]


def test_a_row_of_cards_may_print_an_unreadable_old_code_beside_each_new_one():
    """'(구)HD-SD-001' with its Hangul glyph lost reads '()HD-SD-001': not a code, not a card."""
    rows = table(0, 100, [["HM-2FW-00", "()HD-SD-001", "HM-2FW-01", "()HD-SD-002", "HM-2FW-02", "()HD-SD-003"],
                          ["Walker", "", "Walker", "", "Walker", ""], ["2.4kg", "", "2.8kg", "", "3.2kg", ""]],
                 xs=(30, 120, 210, 300, 390, 480))
    [found] = find_tables(lines_of(*rows), TOLERANCE, None)
    assert [s.attributes["model"] for s in found.skus] == ["HM-2FW-00", "HM-2FW-01", "HM-2FW-02"]


def test_amounts_set_close_after_names_in_many_rows_are_a_column_of_their_own():
    """'櫻花蝦干貝肉包 40': each amount follows its name by less than a cell gap, but in every row, and
    every name's middle lies left of every amount's."""
    items = [("香菇蛋黃肉包", "33"), ("咖哩肉包", "33"), ("櫻花蝦干貝肉包", "40"), ("御鮑肉包", "40"),
             ("招牌肉包", "110")]
    rows = [block(n, [spanned(50, 100 + 14 * n, name), spanned(110 - 6 * len(amount), 100 + 14 * n, amount)])
            for n, (name, amount) in enumerate(items)]
    [grid] = grids_of(lines_of(*rows), TOLERANCE)
    assert [grid.texts(row) for row in grid.rows] == [list(item) for item in items]


def test_a_number_ending_a_few_descriptions_does_not_cut_their_column():
    items = ["Cable NYM 100", "Plug type F", "Socket 16A white", "Cable H07 50", "Switch panel"]
    rows = [block(n, [spanned(50, 100 + 14 * n, item), spanned(250, 100 + 14 * n, f"€{n + 1}.50")])
            for n, item in enumerate(items)]
    [grid] = grids_of(lines_of(*rows), TOLERANCE)
    assert len(grid.columns) == 2  # two rows of five end in a number: a length, not a price column


def test_bare_numbers_after_names_of_any_length_stay_in_their_cells():
    items = ["Kabel NYM 3x1,5 50", "Dose 17", "Schalter weiß 19", "Stecker 23"]
    rows = [block(n, [spanned(50, 100 + 14 * n, item), spanned(250, 100 + 14 * n, "€2.50")])
            for n, item in enumerate(items)]
    [grid] = grids_of(lines_of(*rows), TOLERANCE)
    assert [grid.texts(row)[0] for row in grid.rows] == items  # lengths or counts, not a menu's prices


def test_a_currency_before_each_amount_is_no_name_the_amounts_cut_from():
    items = [("拉桿", "NT 600"), ("主把手", "NT 300"), ("側把手", "NT 300"), ("海關鎖", "NT 350")]
    rows = [block(n, [spanned(50, 100 + 14 * n, name), spanned(200, 100 + 14 * n, "NT"),
                      spanned(215, 100 + 14 * n, price.removeprefix("NT "))])  # closer than a cell gap
            for n, (name, price) in enumerate(items)]
    [grid] = grids_of(lines_of(*rows), TOLERANCE)
    assert [grid.texts(row) for row in grid.rows] == [list(item) for item in items]


def test_two_tables_set_side_by_side_without_a_gutter_split_under_their_header_line():
    """'PAQ6' of the left table's last column runs into the right table's names ('Pan dulce'): one
    body column, under two cells of one header line; the names start under the inner one."""
    header = block(0, [spanned(10, 80, "PRODUCTO"), spanned(90, 80, "PRECIO"), spanned(140, 80, "PAQ"),
                       spanned(166, 80, "PRODUCTO")])
    names = [("Orejas", "PAQ6", "Pan dulce"), ("Cañon", "PAQ6", "Pan hot dog"), ("Herraduras", "", "Donas"),
             ("Pan piñita", "", "Galletas"), ("Pan moña", "", "Achira")]
    rows = [block(n + 1, [spanned(10, 100 + 14 * n, left), spanned(100, 100 + 14 * n, "0.65"),
                          *([spanned(140, 100 + 14 * n, pack)] if pack else []), spanned(166, 100 + 14 * n, right)])
            for n, (left, pack, right) in enumerate(names)]
    [grid] = grids_of(lines_of(header, *rows), TOLERANCE)
    assert len(grid.columns) == 3  # no gutter opens between the packs and the names
    split = split_at_header(grid, list(grid.above))
    assert [split.texts(row) for row in split.rows] == [[a, "0.65", pack, b] for a, pack, b in names]


def test_a_column_under_two_header_cells_splits_where_its_names_start_between_them():
    """'BA15 家務協助' under '碼別 | 服務項目': the code and the name touch, the name header is centred
    right of the names' left edge; the names start, row after row, between the two header cells."""
    header = block(0, [spanned(20, 80, "總費用"), spanned(100, 80, "碼別"), spanned(150, 80, "服務項目")])
    items = [("260", "BA15", "家務協助服務"), ("195", "BA16", "代購服務"), ("35", "BA18", "安全看視"),
             ("130", "BA20", "陪伴")]
    rows = [block(n + 1, [spanned(20, 100 + 14 * n, fee), spanned(100, 100 + 14 * n, code),
                          spanned(126, 100 + 14 * n, name)]) for n, (fee, code, name) in enumerate(items)]
    [grid] = grids_of(lines_of(header, *rows), TOLERANCE)
    assert len(grid.columns) == 2
    split = split_at_header(grid, list(grid.above))
    assert [split.texts(row) for row in split.rows] == [list(item) for item in items]


def test_amounts_with_their_currency_after_a_few_names_are_cut_from_them():
    """'Bottle of beer 20,00 TL' under rows of '85,00 TL' alone: the amounts and their currency are a
    column of their own, the words before them another."""
    items = [("Rakı 20 CL", "", "85,00 TL"), ("Rakı 35 CL", "", "125,00 TL"), ("Rakı 50 CL", "", "175,00 TL"),
             ("Miller 33cl", "Bottle of beer", "20,00 TL"), ("Becks 33cl", "Bottle of beer", "20,00 TL"),
             ("Efes 50cl", "Bottle of beer", "22,00 TL")]
    rows = [block(n, [spanned(50, 100 + 14 * n, name), *([spanned(200, 100 + 14 * n, note)] if note else []),
                      spanned(290, 100 + 14 * n, price)]) for n, (name, note, price) in enumerate(items)]
    [grid] = grids_of(lines_of(*rows), TOLERANCE)
    assert [grid.texts(row) for row in grid.rows] == [list(item) for item in items]


def test_a_column_is_not_cut_through_an_amount_and_its_currency():
    """'3mg - 11 zł' beside '3mg -10 zł' ('-10' reads as no amount): a cut that would part '-10' from
    'zł' is not made."""
    items = ["3mg - 11 zł", "6mg - 11 zł", "9mg - 11 zł", "3mg -10 zł"]
    rows = [block(n, [spanned(50, 100 + 14 * n, text), spanned(250, 100 + 14 * n, "30ml")])
            for n, text in enumerate(items)]
    [grid] = grids_of(lines_of(*rows), TOLERANCE)
    assert [grid.texts(row)[0] for row in grid.rows] == items
