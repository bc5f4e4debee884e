"""Menus whose dishes are ordered by number, read row by row."""

from extractor_pages import block, cells, lines_of, spanned

from skuflow_extractor.domain.menus import numbered_dishes

TOLERANCE = 4.0


def test_each_row_of_a_dish_number_name_and_price_is_a_dish_its_description_below_is_not():
    rows = [cells(0, 100, ["20. 家常豆腐", "€ 14.9"], xs=(50, 380)),
            block(1, [spanned(50, 116, "Gebratener Tofu mit Gemüse (2, f)")]),
            cells(2, 140, ["21. 鱼香茄子", "€ 13.9"], xs=(50, 480)),  # its price set further right
            cells(3, 170, ["22. 青椒土豆丝", "€ 11.9"], xs=(50, 380))]
    dishes = numbered_dishes(lines_of(*rows), TOLERANCE)
    assert [(d.draft.attributes["model"], d.draft.attributes["product_name"], d.draft.attributes["price"])
            for d in dishes] == [("20", "家常豆腐", "14.9"), ("21", "鱼香茄子", "13.9"), ("22", "青椒土豆丝", "11.9")]
    assert dishes[0].draft.raw["price"] == "€ 14.9"


def test_rows_of_side_by_side_dishes_and_a_count_from_one_are_no_numbered_menu():
    side_by_side = [cells(n, 100 + 20 * n, [f"{n + 20}. 鍋", "$100", "菜盤", "$150"], xs=(50, 150, 250, 350))
                    for n in range(3)]
    assert numbered_dishes(lines_of(*side_by_side), TOLERANCE) == []
    counted = [cells(n, 100 + 20 * n, [f"{n + 1}. 香茅檸檬鍋", "$100"], xs=(50, 300)) for n in range(3)]
    assert numbered_dishes(lines_of(*counted), TOLERANCE) == []
