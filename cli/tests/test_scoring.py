"""The scorer on small hand-computed cases (GOLDEN_FORMAT §3)."""

import pytest

from skuflow_cli.evaluation.scoring import Tally, iou, normalize, same_price, score_document, score_page


def sku(sku_id, validity="valid", **attributes):
    return {"sku_id": sku_id, "validity": validity, "attributes": attributes}


def page(number, skus=(), page_type="C", layout="L2", needs_review=False, images=(), bindings=()):
    return {"page": number, "page_type": page_type, "layout": layout, "needs_review": needs_review,
            "skus": list(skus), "images": list(images), "bindings": list(bindings)}


def test_iou_by_hand():
    assert iou([0, 0, 10, 10], [0, 0, 10, 10]) == 1.0
    assert iou([0, 0, 10, 10], [5, 0, 15, 10]) == pytest.approx(50 / 150)
    assert iou([0, 0, 10, 10], [20, 20, 30, 30]) == 0.0
    assert iou([0, 0, 0, 0], [0, 0, 0, 0]) == 0.0


def test_keys_normalize_width_case_and_spaces():
    assert normalize(" ａb-1 00 ") == normalize("AB-100") == "AB-100"
    assert same_price("12.5", "12.50") and same_price("1,299", "1299") and not same_price("abc", "1")


def test_precision_recall_and_f1_by_hand():
    truth = {"page": 1, "page_type": "C", "layout": "L2", "skus": [
        {"model": "A-1", "product_name": "杯", "price": "10.00"},
        {"model": "A-2", "product_name": "碗", "price": "5"},
        {"model": None, "product_name": "Plate", "price": None},
        {"model": "A-4", "product_name": "盘"},
    ]}
    predicted = page(1, [
        sku("s1", model="a-1", product_name="杯", price="10"),      # match, price equal as a number
        sku("s2", model="A-2", product_name="碗", price="6"),       # match, wrong price
        sku("s3", product_name=" plate "),                          # match by product_name
        sku("s4", model="A-9", product_name="x", price="1"),        # false positive
        sku("s5", validity="invalid", model="A-4"),                 # invalid: not a prediction
    ])
    metrics = score_page(truth, predicted).metrics()
    assert metrics["sku"] == {"matched": 3, "predicted": 4, "truth": 4, "precision": 0.75, "recall": 0.75,
                              "f1": 0.75}
    assert metrics["attributes"]["price"] == {"correct": 1, "total": 2, "accuracy": 0.5}
    assert metrics["attributes"]["product_name"] == {"correct": 3, "total": 3, "accuracy": 1.0}
    assert metrics["attributes"]["model"]["total"] == 2  # the truth has no model for "Plate"
    assert metrics["page_type_accuracy"] == 1.0


def test_duplicate_predictions_match_once_and_count_as_false_positives():
    truth = {"page": 1, "page_type": "A", "layout": "L1", "skus": [{"model": "X-1"}]}
    tally = score_page(truth, page(1, [sku("a", model="X-1"), sku("b", model="x-1")], page_type="A"))
    assert (tally.sku_matched, tally.sku_predicted, tally.sku_truth) == (1, 2, 1)


def test_a_key_printed_on_several_rows_matches_the_row_that_agrees_with_it_whatever_the_order():
    truth = {"page": 1, "page_type": "A", "layout": "L1", "skus": [
        {"model": None, "product_name": "Жумрак", "price": "13763"},
        {"model": None, "product_name": "Жумрак", "price": "16648"}]}
    tally = score_page(truth, page(1, [sku("s1", product_name="Жумрак", price="16648"),
                                       sku("s2", product_name="Жумрак", price="13763")]))
    assert tally.sku_matched == 2 and tally.attr_correct["price"] == 2 and tally.error_pages == 0


def test_binding_counts_correct_bound_and_ambiguous():
    truth = {"page": 1, "page_type": "C", "layout": "L2", "skus": [
        {"model": "M-1", "image_bbox": [0, 0, 100, 100]},
        {"model": "M-2", "image_bbox": [200, 0, 300, 100]},
        {"model": "M-3", "image_bbox": [400, 0, 500, 100]},
        {"model": "M-4"},
    ]}
    images = [{"image_id": "i1", "bbox": [0, 0, 100, 90]}, {"image_id": "i2", "bbox": [400, 0, 500, 100]}]
    bindings = [{"sku_id": "s1", "image_id": "i1"},        # IoU 0.9: correct
                {"sku_id": "s2", "image_id": "i2"},        # wrong image
                {"sku_id": "s3", "image_id": None, "is_ambiguous": True},  # ambiguous = not bound
                {"sku_id": "s4", "image_id": "i1"}]        # no image_bbox in truth: not scored
    predicted = page(1, [sku(f"s{i}", model=f"M-{i}") for i in range(1, 5)], images=images, bindings=bindings)
    binding = score_page(truth, predicted).metrics()["binding"]
    assert binding == {"correct": 1, "bound": 2, "truth": 3, "precision": 0.5, "recall": pytest.approx(0.3333)}


def test_uncertain_pages_are_left_out_and_missing_pages_score_zero():
    truth = {"language": "zh", "pages": [
        {"page": 1, "page_type": "D", "layout": None, "uncertain": True, "skus": [{"model": "Z-1"}]},
        {"page": 2, "page_type": "A", "layout": "L1", "skus": [{"model": "Z-2"}]},
    ]}
    scored = score_document("doc", truth, {"pages": [page(1, [sku("s", model="Q-9")], page_type="C")]})
    assert [p.tally.pages for p in scored] == [1] and scored[0].page_type == "A"
    tally = scored[0].tally
    assert (tally.sku_matched, tally.sku_predicted, tally.sku_truth, tally.page_type_correct) == (0, 0, 1, 0)
    assert tally.needs_review == 1  # a page with no result needs a human
    assert score_document("doc", truth, None)[0].tally.sku_truth == 1


def test_tallies_add_up_to_micro_averages():
    a = score_page({"page": 1, "page_type": "A", "layout": "L1", "skus": [{"model": "A"}, {"model": "B"}]},
                   page(1, [sku("1", model="A")], page_type="A", layout="L1"))
    b = score_page({"page": 2, "page_type": "C", "layout": "L2", "skus": [{"model": "C"}]},
                   page(2, [sku("2", model="C"), sku("3", model="D")], needs_review=True))
    total = Tally()
    total += a
    total += b
    metrics = total.metrics()
    assert metrics["sku"]["precision"] == pytest.approx(2 / 3, abs=1e-4)
    assert metrics["sku"]["recall"] == pytest.approx(2 / 3, abs=1e-4)
    assert metrics["human_intervention_rate"] == 0.5 and metrics["pages"] == 2


def test_nothing_to_measure_is_none_not_zero():
    metrics = score_page({"page": 1, "page_type": "D", "layout": None, "skus": []},
                         page(1, page_type="D", layout=None)).metrics()
    assert metrics["sku"]["precision"] is None and metrics["sku"]["recall"] is None
    assert metrics["sku"]["f1"] is None and metrics["binding"]["precision"] is None
    assert metrics["page_type_accuracy"] == 1.0
