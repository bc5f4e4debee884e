"""A review's patch applied to the page the annotator was shown: what changes, what is refused, which
annotations; and the property the review desk rests on: what the patch does not name is kept exactly."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skuflow_collab.domain.corrections import InvalidCorrection, PagePatch, StaleValue, apply
from skuflow_contracts.results import ATTRIBUTE_NAMES, BindingRecord, ImageRecord, PageResult, SkuRecord

HASH = "cd" * 32


def machine_page() -> PageResult:
    skus = [SkuRecord(sku_id=f"s{n}", validity="valid", attributes={"model": f"M-{n}", "price": "1.00"},
                      source_bbox=(0, 20 * n, 100, 20 * n + 15), confidence=0.6,
                      raw_attributes={"price": "¥1.00"}, custom_attributes={"功率": "5W; 10W"},
                      status="PENDING_CONFIRMATION") for n in (1, 2)]
    images = [ImageRecord(image_id="img_1", bbox=(200, 0, 300, 100), role="PRODUCT_MAIN", short_edge=300)]
    return PageResult(page=4, status="HUMAN_QUEUED", page_type="C", layout="L1", needs_review=True,
                      parser_backend="pymupdf", extraction_method="two_stage", skus=skus, images=images,
                      bindings=[BindingRecord(sku_id="s1", image_id="img_1", confidence=0.9, method="m")])


def test_edits_deletions_additions_and_a_drawn_picture_become_the_reviewed_page_and_annotations():
    patch = PagePatch.model_validate({
        "edited": [{"sku_id": "s1", "attributes": {"price": {"before": "1.00", "after": "2.00"}},
                    "custom_attributes": {"颜色": {"before": None, "after": "红"},
                                          "功率": {"before": "5W; 10W", "after": None}}}],
        "added": [{"attributes": {"model": "NEW-1"}, "bbox": [0, 200, 100, 215], "image_id": "pic-a"}],
        "deleted": ["s2"],
        "new_images": [{"key": "pic-a", "bbox": [200, 200, 272, 272]}],
        "page_type": {"before": "C", "after": "A"}})
    reviewed, notes = apply(machine_page(), patch, HASH)
    assert [(s.sku_id, s.attributes.model, s.attributes.price) for s in reviewed.skus] == [
        ("s1", "M-1", "2.00"), ("cdcdcdcd_p04_901", "NEW-1", None)]
    edited = reviewed.skus[0]
    assert edited.custom_attributes == {"颜色": "红"} and edited.raw_attributes == {} and edited.confidence == 1.0
    drawn = reviewed.images[-1]
    assert (drawn.image_id, drawn.role, drawn.short_edge) == ("img_cdcdcdcd_p04_901", "PRODUCT_MAIN", 150)
    assert {b.sku_id: b.image_id for b in reviewed.bindings} == {"s1": "img_1", "cdcdcdcd_p04_901": drawn.image_id}
    assert reviewed.bindings[0].method == "m"  # the binding nobody touched is kept as the machine made it
    assert (reviewed.needs_review, reviewed.page_type, reviewed.status) == (False, "A", "HUMAN_COMPLETED")
    assert sorted(n.type for n in notes) == ["BINDING_CORRECTION", "CUSTOM_ATTR_CONFIRM", "IMAGE_ROLE_CORRECTION",
                                             "PAGE_TYPE_CORRECTION", "SKU_ATTRIBUTE_CORRECTION",
                                             "SKU_ATTRIBUTE_CORRECTION", "SKU_ATTRIBUTE_CORRECTION"]
    assert {n.payload.get("action") for n in notes if n.type == "SKU_ATTRIBUTE_CORRECTION"} == {
        "edited", "added", "deleted"}


def test_approving_unchanged_keeps_every_sku_and_binding_as_read_and_confirms_what_waited():
    page = machine_page()
    page = page.model_copy(update={"bindings": [  # in no particular order, one of a SKU not on the page
        BindingRecord(sku_id="s2", image_id=None, confidence=0.1, method="m"), *page.bindings,
        BindingRecord(sku_id="gone", image_id="img_1", confidence=0.2, method="m")]})
    reviewed, notes = apply(page, PagePatch.model_validate({}), HASH)
    assert notes == []
    assert [s.model_copy(update={"status": "PENDING_CONFIRMATION"}) for s in reviewed.skus] == page.skus
    assert {s.status for s in reviewed.skus} == {"IMPORT_READY"}
    assert reviewed.bindings == page.bindings and reviewed.images == page.images


def test_a_change_to_a_value_the_page_does_not_hold_is_refused():
    stale = {"edited": [{"sku_id": "s1", "custom_attributes": {"功率": {"before": "5W", "after": "5W"}}}]}
    with pytest.raises(StaleValue, match="custom_attributes"):
        apply(machine_page(), PagePatch.model_validate(stale), HASH)
    with pytest.raises(StaleValue, match=r"s2\.price"):
        apply(machine_page(), PagePatch.model_validate(
            {"edited": [{"sku_id": "s2", "attributes": {"price": {"before": "9.99", "after": "2"}}}]}), HASH)
    with pytest.raises(StaleValue, match="image_id"):
        apply(machine_page(), PagePatch.model_validate(
            {"edited": [{"sku_id": "s2", "image_id": {"before": "img_1", "after": None}}]}), HASH)


def test_a_rework_numbers_what_it_draws_after_what_the_earlier_review_drew():
    first, _ = apply(machine_page(), PagePatch.model_validate({
        "added": [{"attributes": {"model": "A"}, "bbox": [0, 0, 1, 1], "image_id": "p"}],
        "new_images": [{"key": "p", "bbox": [0, 0, 10, 10]}]}), HASH)
    second, _ = apply(first, PagePatch.model_validate({
        "added": [{"attributes": {"model": "B"}, "bbox": [0, 0, 1, 1], "image_id": "q"}],
        "new_images": [{"key": "q", "bbox": [0, 0, 10, 10]}]}), HASH)
    assert [s.sku_id[-3:] for s in second.skus] == ["s1", "s2", "901", "902"]
    assert [i.image_id[-3:] for i in second.images] == ["g_1", "901", "902"]


@pytest.mark.parametrize("body, message", [
    ({"edited": [{"sku_id": "s9"}]}, "SKU s9 is not on page 4"),
    ({"deleted": ["s9"]}, "SKU s9 is not on page 4"),
    ({"edited": [{"sku_id": "s1", "image_id": {"before": "img_1", "after": "img_9"}}]}, "image img_9 is not on page 4"),
])
def test_patches_that_do_not_fit_the_page_are_refused(body, message):
    with pytest.raises(InvalidCorrection, match=message):
        apply(machine_page(), PagePatch.model_validate(body), HASH)


def test_a_table_laid_out_with_the_table_tool_is_kept_as_its_column_roles():
    table = {"bbox": [0, 0, 300, 60], "header": True, "rows": 2, "columns": [
        {"x0": 0, "x1": 100, "role": "model"}, {"x0": 100, "x1": 200, "role": "other", "name": "功率"},
        {"x0": 200, "x1": 300, "role": "ignore"}]}
    patch = PagePatch.model_validate({"added": [{"attributes": {"model": "T-1"}, "bbox": [0, 20, 300, 40]}],
                                      "tables": [table]})
    reviewed, notes = apply(machine_page(), patch, HASH)
    assert [n.payload for n in notes if n.type == "TEXT_ROLE_CORRECTION"] == [
        {"action": "table", **table, "bbox": (0, 0, 300, 60),
         "columns": [{**c, "x0": float(c["x0"]), "x1": float(c["x1"]), "name": c.get("name")}
                     for c in table["columns"]]}]
    assert [s.attributes.model for s in reviewed.skus] == ["M-1", "M-2", "T-1"]


@pytest.mark.parametrize("body, message", [
    ({"skus": []}, "Extra inputs"),  # the whole page re-serialised, the old form: refused, never guessed at
    ({"tables": [{"bbox": [0, 0, 1, 1], "rows": 1, "columns": [{"x0": 0, "x1": 1, "role": "weight"}]}]}, "role"),
    ({"tables": [{"bbox": [0, 0, 1, 1], "rows": 1, "columns": []}]}, "at least 1"),
    ({"added": [{"attributes": {"model": "X"}}]}, "bbox"),
    ({"edited": [{"sku_id": "s1"}], "deleted": ["s1"]}, "both edited and deleted"),
    ({"edited": [{"sku_id": "s1", "attributes": {"weight": {"before": None, "after": "1"}}}]}, "weight"),
    ({"edited": [{"sku_id": "s1", "attributes": {"model": {"before": "M\x001", "after": "x"}}}]}, "NUL"),
    ({"edited": [{"sku_id": "s1", "custom_attributes": {" ": {"before": None, "after": "v"}}}]}, "names"),
])
def test_malformed_patches_are_refused_before_they_reach_the_page(body, message):
    with pytest.raises(ValueError, match=message):
        PagePatch.model_validate(body)


values = st.none() | st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"), max_size=40) \
    | st.sampled_from(["1.fla,flb,flc; 2.a,b,e; 带录音", "a=b; c=d", "尺寸：10×20\n重量：5kg", " 前后空格 ", ""])
records = st.builds(
    lambda n, attributes, custom, raw: SkuRecord(
        sku_id=f"s{n}", validity="valid", attributes=dict(zip(ATTRIBUTE_NAMES, attributes, strict=True)),
        custom_attributes=custom, raw_attributes=raw, source_bbox=(0, n, 10, n + 5), confidence=0.5),
    st.integers(1, 99), st.tuples(*[values] * len(ATTRIBUTE_NAMES)),
    st.dictionaries(st.text(min_size=1, max_size=8).filter(lambda k: k.strip() and "\x00" not in k),
                    values.filter(lambda v: v is not None), max_size=5),
    st.dictionaries(st.sampled_from(ATTRIBUTE_NAMES), st.text(max_size=10), max_size=3))


@settings(max_examples=200, deadline=None)
@given(st.lists(records, max_size=8, unique_by=lambda s: s.sku_id), st.data())
def test_a_patch_changes_exactly_the_values_it_names(skus, data):
    page = machine_page().model_copy(update={"skus": skus, "bindings": []})
    edits = {}
    for sku in data.draw(st.lists(st.sampled_from(skus), unique_by=lambda s: s.sku_id)) if skus else []:
        name = data.draw(st.sampled_from(ATTRIBUTE_NAMES))
        edits[sku.sku_id] = (name, data.draw(values))
    patch = PagePatch.model_validate({"edited": [
        {"sku_id": sku_id, "attributes": {name: {"before": getattr(next(s for s in skus if s.sku_id == sku_id)
                                                                    .attributes, name), "after": after}}}
        for sku_id, (name, after) in edits.items()]})
    reviewed, _ = apply(page, patch, HASH)
    for before, after in zip(page.skus, reviewed.skus, strict=True):
        if before.sku_id not in edits:
            assert after == before
            continue
        name, value = edits[before.sku_id]
        assert getattr(after.attributes, name) == value
        assert after.custom_attributes == before.custom_attributes
        for other in set(ATTRIBUTE_NAMES) - {name}:
            assert getattr(after.attributes, other) == getattr(before.attributes, other)
