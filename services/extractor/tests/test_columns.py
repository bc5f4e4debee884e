"""Columns of a headerless table, inferred from what its cells hold."""

from extractor_pages import body_rows, lines_of, table

from skuflow_extractor.domain.columns import infer_columns
from skuflow_extractor.domain.tables import find_tables
from skuflow_extractor.domain.words import rows_of


def test_cells_name_their_columns_model_name_size_and_price():
    rows = rows_of(lines_of(*table(0, 60, body_rows(1, 3))), 4.0)
    assert [attr for attr, _ in infer_columns(rows)] == ["model", "product_name", "size", "price"]


def test_colour_and_material_columns_are_named_by_their_words():
    rows = rows_of(lines_of(*table(0, 60, [["SF-0001", "保温杯", "黑色", "304不锈钢", "¥8"],
                                            ["SF-0002", "Mug", "White", "Ceramic", "¥9"]],
                                   xs=(50, 130, 230, 300, 420))), 4.0)
    assert [attr for attr, _ in infer_columns(rows)] == ["model", "product_name", "color", "material", "price"]


def test_rows_without_a_column_of_model_codes_are_not_a_table():
    rows = rows_of(lines_of(*table(0, 60, [["玻璃杯", "¥8"], ["保温杯", "¥9"]])), 4.0)
    assert infer_columns(rows) is None


def test_inferred_tables_are_read_only_when_asked_and_say_where_their_columns_came_from():
    lines = lines_of(*table(0, 60, body_rows(1, 3)))
    assert find_tables(lines, 4.0, None) == []
    [found] = find_tables(lines, 4.0, None, infer=True)
    assert [sku.attributes["model"] for sku in found.skus] == ["SF-0001", "SF-0002", "SF-0003"]
    assert found.skus[0].source == dict.fromkeys(("model", "product_name", "size", "price"), "inferred_columns")
    assert not found.inherited
