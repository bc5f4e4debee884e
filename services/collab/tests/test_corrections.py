"""Corrections applied to the machine's page: what changes, what is refused, which annotations."""

import pytest

from skuflow_collab.domain.corrections import Corrections, InvalidCorrection, apply
from skuflow_contracts.results import BindingRecord, ImageRecord, PageResult, SkuRecord

HASH = "cd" * 32


def machine_page() -> PageResult:
    skus = [SkuRecord(sku_id=f"s{n}", validity="valid", attributes={"model": f"M-{n}", "price": "1.00"},
                      source_bbox=(0, 20 * n, 100, 20 * n + 15), confidence=0.6) for n in (1, 2)]
    images = [ImageRecord(image_id="img_1", bbox=(200, 0, 300, 100), role="PRODUCT_MAIN", short_edge=300)]
    return PageResult(page=4, status="HUMAN_QUEUED", page_type="C", layout="L1", needs_review=True,
                      parser_backend="pymupdf", extraction_method="two_stage", skus=skus, images=images,
                      bindings=[BindingRecord(sku_id="s1", image_id="img_1", confidence=0.9, method="m")])


def test_edits_deletions_additions_and_a_drawn_picture_become_the_reviewed_page_and_annotations():
    body = Corrections.model_validate({
        "skus": [{"sku_id": "s1", "attributes": {"model": "M-1", "price": "2.00"}, "image_id": "img_1",
                  "custom_attributes": {"功率": "5W"}},
                 {"attributes": {"model": "NEW-1"}, "bbox": [0, 200, 100, 215], "image_id": "pic-a"}],
        "new_images": [{"key": "pic-a", "bbox": [200, 200, 272, 272]}], "page_type": "A"})
    reviewed, notes = apply(machine_page(), body, HASH)
    assert [(s.sku_id, s.attributes.model, s.attributes.price) for s in reviewed.skus] == [
        ("s1", "M-1", "2.00"), ("cdcdcdcd_p04_901", "NEW-1", None)]
    drawn = reviewed.images[-1]
    assert (drawn.image_id, drawn.role, drawn.short_edge) == ("img_cdcdcdcd_p04_901", "PRODUCT_MAIN", 150)
    assert {b.sku_id: b.image_id for b in reviewed.bindings} == {"s1": "img_1", "cdcdcdcd_p04_901": drawn.image_id}
    assert (reviewed.needs_review, reviewed.page_type, reviewed.status) == (False, "A", "HUMAN_COMPLETED")
    assert sorted(n.type for n in notes) == ["BINDING_CORRECTION", "CUSTOM_ATTR_CONFIRM", "IMAGE_ROLE_CORRECTION",
                                             "PAGE_TYPE_CORRECTION", "SKU_ATTRIBUTE_CORRECTION",
                                             "SKU_ATTRIBUTE_CORRECTION", "SKU_ATTRIBUTE_CORRECTION"]
    assert {n.payload.get("action") for n in notes if n.type == "SKU_ATTRIBUTE_CORRECTION"} == {
        "edited", "added", "deleted"}


@pytest.mark.parametrize("body, message", [
    ({"skus": [{"sku_id": "s9", "attributes": {}}]}, "SKU s9 is not on page 4"),
    ({"skus": [{"sku_id": "s1", "attributes": {}, "image_id": "img_9"}]}, "image img_9 is not on page 4"),
    ({"skus": [{"attributes": {"model": "X"}}]}, "a new SKU needs the box drawn for it"),
])
def test_corrections_that_do_not_fit_the_page_are_refused(body, message):
    with pytest.raises(InvalidCorrection, match=message):
        apply(machine_page(), Corrections.model_validate(body), HASH)


def test_text_postgres_cannot_store_is_refused_before_it_gets_there():
    with pytest.raises(ValueError, match="NUL"):
        Corrections.model_validate({"skus": [{"sku_id": "s1", "attributes": {"model": "M\x001"}}]})
    with pytest.raises(ValueError, match="NUL"):
        Corrections.model_validate({"skus": [{"sku_id": "s1", "attributes": {}, "custom_attributes": {"k\x00": "v"}}]})
