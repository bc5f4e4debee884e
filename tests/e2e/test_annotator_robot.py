"""The robot annotator's plan (no browser): what it changes to make a page right, and where it draws tables."""

from tests.e2e.annotator_robot import (
    column_roles,
    field_words,
    is_correct,
    keys_of,
    missing_cuts,
    plan_fixes,
    table_regions,
)

TRUTH = [{"model": "A-1", "price": "10"}, {"model": "A-2", "price": "20"}, {"model": "A-3", "price": "30"}]


def sku(**attributes) -> dict:
    return {"attributes": attributes}


def test_a_page_read_right_needs_nothing_and_is_correct():
    read = [sku(model="A-1", price="10.00"), sku(model="a-2", price="20"), sku(model="A-3", price="30")]
    assert plan_fixes(TRUTH, read).size == 0 and is_correct({"skus": TRUTH}, read)


def test_wrong_values_are_retyped_leftovers_reused_extras_deleted_and_the_missing_drawn():
    read = [sku(model="A-1", price="99"), sku(model="garbled", price="20"), sku(model="noise"),
            sku(price="5")]  # no code, no name: counts for nothing
    plan = plan_fixes([*TRUTH, {"model": "A-4"}], read)
    assert plan.edits == {0: {"price": "10"}, 1: {"model": "A-2"}, 2: {"model": "A-3", "price": "30"}}
    assert plan.deletions == [] and plan.additions == [{"model": "A-4"}]
    assert plan_fixes(TRUTH[:1], read).deletions == [1, 2]
    assert not is_correct({"skus": TRUTH}, read)


def test_tables_are_drawn_around_key_columns_boundaries_added_and_roles_go_where_the_values_are():
    words = [{"bbox": (x, y, x + 30, y + 8), "text": text} for x, y, text in [
        (50, 100, "A-1"), (82, 100, "10"), (50, 110, "A-2"), (82, 110, "20"),
        (300, 100, "A-3"), (370, 100, "30"), (450, 300, "A-4"), (450, 310, "A-5")]]
    truth = [*TRUTH, {"model": "A-4"}, {"model": "A-5"}]
    regions = table_regions(truth, words, page_width=600)
    assert regions == [(48, 98, 448, 120), (448, 298, 482, 320)]  # A-3 beside A-1: one table of two blocks
    fields = field_words(truth, words, regions[0])
    assert {name: len(found) for name, found in fields.items()} == {"model": 3, "price": 3}
    assert missing_cuts(fields, regions[0], cuts=[200]) == [81, 350]  # code and price in one column: split
    assert column_roles(fields, regions[0], cuts=[81, 200, 350], roles=["size", "other", "other", "size"]) == {
        0: "model", 1: "price", 3: "ignore"}  # one row is too few to say what the second block's columns are
    assert keys_of("AD14 苦瓜") == 5 + 2 * 4
