"""The learned page type: it replaces the rules' type, keeps their verdict in the detail, sets the layout
and the review from its own probability, and refuses an artifact trained on other measures."""

import json

import lightgbm
import numpy as np
import pytest
from classifier_pages import PROFILE, image, page, price_table, product_grid, stacked

from skuflow_classifier.domain.classification import classify_page
from skuflow_classifier.domain.page_types import (
    FEATURES,
    PAGE_TYPES,
    PageTypeModel,
    PageTypesMismatch,
    classify,
    committed_page_types,
    load_page_types,
    measures,
)

TABLE, GRID = page(price_table()), product_grid()


def model_saying(labels: list[str]) -> PageTypeModel:
    """A model that learned ``labels`` for pages measured like the price table, whatever the rules said."""
    rows = [measures(classify_page(TABLE, PROFILE))] * len(labels)
    data = lightgbm.Dataset(np.array(rows), label=[PAGE_TYPES.index(t) for t in labels], params={"verbose": -1})
    booster = lightgbm.train({"objective": "multiclass", "num_class": len(PAGE_TYPES), "min_data_in_leaf": 1,
                              "num_threads": 1, "deterministic": True, "verbose": -1}, data, num_boost_round=20)
    return PageTypeModel.of(booster)


def test_the_learned_type_replaces_the_rules_type_and_the_layout_follows_it():
    learned = classify(TABLE, PROFILE, model_saying(["C"] * 20 + ["A"]))
    rules = classify_page(TABLE, PROFILE)
    assert (rules.page_type, rules.layout) == ("A", "L1")
    assert (learned.page_type, learned.layout, learned.needs_review) == ("C", "L1", False)
    assert learned.page_type_confidence > 0.9 and learned.reason.startswith("learned C at 0.9")
    assert (learned.detail["rule_page_type"], learned.detail["confidence"]) == ("A", 0.9)  # the rules' verdict kept
    assert learned.detail["learned"]["version"].startswith("page-types-")
    assert (learned.block_roles, learned.image_roles) == (rules.block_roles, rules.image_roles)  # roles stay the rules'


def test_a_page_the_model_calls_without_products_has_no_layout():
    assert classify(TABLE, PROFILE, model_saying(["D"] * 20)).layout is None


def test_a_page_the_model_is_unsure_lists_products_goes_to_review():
    unsure = classify(TABLE, PROFILE, model_saying(["A", "D"] * 10))
    assert unsure.page_type_confidence < PROFILE.classification.page_type_min_confidence and unsure.needs_review
    called_d = classify(TABLE, PROFILE, model_saying(["D", "D", "A"] * 7))
    assert called_d.page_type == "D" and called_d.page_type_confidence < 0.7 and called_d.needs_review


def test_a_product_page_torn_between_product_types_is_not_reviewed_for_its_type():
    torn = classify(TABLE, PROFILE, model_saying(["A", "B", "C"] * 7))
    assert torn.page_type in ("A", "B", "C") and torn.page_type_confidence < 0.5
    assert not torn.needs_review  # it lists products, whichever kind of product page it is
    assert classify(TABLE, PROFILE, model_saying(["A", "B", "C", "D"] * 5)).needs_review is False  # D at a fourth


def test_the_model_reads_the_rules_type_confidence_and_counts():
    row = measures(classify_page(GRID, PROFILE))
    assert len(row) == len(FEATURES) and row[:5] == [0.0, 0.0, 1.0, 0.0, 0.85]  # the rules say C at 0.85
    assert row[FEATURES.index("product_images")] == 4.0


def test_an_artifact_trained_on_other_measures_is_refused_and_the_committed_one_loads(tmp_path):
    model = model_saying(["A"] * 10)
    model.save(tmp_path, trained_on={"pages": 10})
    assert load_page_types(tmp_path).version == model.version
    manifest = json.loads((tmp_path / "page_types.json").read_text())
    (tmp_path / "page_types.json").write_text(json.dumps({**manifest, "features": manifest["features"][1:]}))
    with pytest.raises(PageTypesMismatch, match="skuflow train"):
        load_page_types(tmp_path)
    committed = committed_page_types()
    assert committed is not None and classify(TABLE, PROFILE).detail["learned"]["version"] == committed.version


def test_a_page_the_rules_doubted_stays_in_review_when_the_model_calls_it_without_products():
    blurred = page([stacked(1, 50, 100, "lorem")], [image(1, (0, 0, 595, 842))]).model_copy(
        update={"parser_backend": "ocr", "ocr_confidence": 0.55})  # the products may be what OCR missed
    rules = classify_page(blurred, PROFILE)
    assert (rules.page_type, rules.needs_review) == ("D", True)
    model = model_saying(["D"] * 20)
    assert classify(blurred, PROFILE, model).needs_review  # sure it is D, but then no one would look
    assert not classify(TABLE, PROFILE, model).needs_review  # the rules were sure of the table
