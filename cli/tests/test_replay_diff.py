"""What ``skuflow replay`` reports as different (pure): field by field, list items by their ids."""

from skuflow_cli.replay import ABSENT, Difference, differences


def test_identical_values_differ_nowhere():
    value = {"skus": [{"sku_id": "a", "confidence": 0.9}], "page_type": "A", "reasons": ["x"]}
    assert differences(value, value) == []


def test_skus_are_compared_by_id_whatever_their_order_and_a_missing_one_is_named():
    recorded = {"skus": [{"sku_id": "a", "attributes": {"price": "1"}}, {"sku_id": "b", "attributes": {"price": "2"}}]}
    replayed = {"skus": [{"sku_id": "c", "attributes": {"price": "3"}},
                         {"sku_id": "a", "attributes": {"price": "1.5"}}]}
    assert differences(recorded, replayed) == [
        Difference("skus[a].attributes.price", "1", "1.5"),
        Difference("skus[b]", {"sku_id": "b", "attributes": {"price": "2"}}, ABSENT),
        Difference("skus[c]", ABSENT, {"sku_id": "c", "attributes": {"price": "3"}})]


def test_lists_without_ids_compare_by_position_or_whole():
    assert differences({"reasons": ["a", "b"]}, {"reasons": ["a", "c"]}) == [Difference("reasons[1]", "b", "c")]
    assert differences({"reasons": ["a"]}, {"reasons": ["a", "c"]}) == [Difference("reasons", ["a"], ["a", "c"])]
    assert differences({"layout": "L1"}, {}) == [Difference("layout", "L1", ABSENT)]
    assert str(Difference("page_type", "A", ABSENT)) == 'page_type: recorded "A", replayed (absent)'
