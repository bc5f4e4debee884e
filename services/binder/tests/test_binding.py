"""Binding by layout-tiered distance, ambiguity to a human, image dedup and quality flags."""

import pytest

from skuflow_binder.domain.binding import bbox_distance, bind_sku, infer_method
from skuflow_binder.domain.page import bind_page, image_records
from skuflow_contracts.ir import ImageRegion, ParsedPage
from skuflow_contracts.results import ImageRecord, PageClassification, SkuAttributes, SkuRecord


def sku(box, sku_id="h_p01_001", validity="valid"):
    return SkuRecord(sku_id=sku_id, validity=validity, attributes=SkuAttributes(model="X-1", price="1"),
                     source_bbox=box, confidence=0.9)


def img(image_id, box, role="PRODUCT_MAIN", duplicate=False):
    return ImageRecord(image_id=image_id, bbox=box, role=role, short_edge=700, is_duplicate=duplicate)


def test_distance_is_between_edges_and_zero_when_touching():
    assert bbox_distance((0, 0, 10, 10), (13, 14, 20, 20)) == 5.0
    assert bbox_distance((0, 0, 10, 10), (5, 5, 20, 20)) == 0.0


def test_the_nearest_image_binds_with_confidence_one_minus_d_over_threshold():
    binding = bind_sku(sku((40, 298, 260, 360)), [img("own", (40, 90, 260, 290)),
                                                   img("right", (305, 90, 525, 290))], "L2")
    assert (binding.image_id, binding.confidence, binding.method) == ("own", 0.92, "grid_alignment")
    assert not binding.is_ambiguous and binding.candidates == []


def test_two_images_within_the_gap_leave_the_sku_unbound_with_top_candidates():
    images = [img("a", (0, 100, 100, 200)), img("b", (220, 100, 320, 200)), img("c", (110, 0, 210, 60)),
              img("d", (110, 260, 210, 300))]
    binding = bind_sku(sku((110, 120, 210, 180)), images, "L1")
    assert binding.image_id is None and binding.is_ambiguous
    assert len(binding.candidates) == 3
    assert binding.confidence == binding.candidates[0].confidence


def test_images_beyond_the_layout_threshold_or_not_products_are_never_candidates():
    far = bind_sku(sku((0, 0, 10, 10)), [img("far", (0, 100, 10, 110))], "L4")  # 90 > 80
    assert (far.image_id, far.confidence, far.is_ambiguous) == (None, 0.0, False)
    logo = bind_sku(sku((0, 0, 10, 10)), [img("logo", (0, 12, 10, 20), role="LOGO")], "L1")
    assert logo.image_id is None
    dup = bind_sku(sku((0, 0, 10, 10)), [img("dup", (0, 12, 10, 20), duplicate=True)], "L1")
    assert dup.image_id is None


@pytest.mark.parametrize("sku_box, image_box, layout, method", [
    ((0, 300, 100, 350), (0, 0, 100, 200), "L1", "vertical_stack"),
    ((300, 0, 400, 100), (0, 0, 100, 100), "L3", "reading_order"),
    ((150, 150, 200, 200), (0, 0, 100, 100), None, "spatial_proximity"),
])
def test_binding_method_follows_the_geometry(sku_box, image_box, layout, method):
    assert infer_method(sku_box, image_box, layout) == method


def parsed_page(images):
    return ParsedPage(page=1, width=595, height=842, parser_backend="pymupdf", images=images)


def region(image_id, box, content_hash, px=700):
    return ImageRegion(image_id=image_id, bbox=box, width_px=px, height_px=px, content_hash=content_hash,
                       uri=f"local://{image_id}.png")


def test_repeated_images_are_duplicates_and_small_ones_are_flagged_low_resolution():
    page = parsed_page([region("i1", (0, 0, 50, 50), "same"), region("i2", (100, 0, 150, 50), "same"),
                        region("i3", (0, 100, 50, 150), "other", px=300)])
    classification = PageClassification(page_type="C", page_type_confidence=0.9, layout="L1")
    records = image_records(page, classification)
    assert [r.is_duplicate for r in records] == [False, True, False]
    assert [r.quality_warning for r in records] == [None, None, "low_resolution"]


def test_a_page_with_an_ambiguous_or_invalid_sku_needs_review():
    images = [region("a", (0, 100, 100, 200), "a"), region("b", (220, 100, 320, 200), "b")]
    classification = PageClassification(page_type="C", page_type_confidence=0.9, layout="L1")
    ambiguous = bind_page(parsed_page(images), classification, [sku((110, 120, 210, 180))], "two_stage")
    assert ambiguous.needs_review and ambiguous.status == "HUMAN_QUEUED"
    invalid = bind_page(parsed_page([]), classification, [sku((0, 0, 1, 1), validity="invalid")], "two_stage")
    assert invalid.validation.has_errors and invalid.validation.triggered_rules == ["INV-06:h_p01_001"]
    assert invalid.bindings == [] and invalid.needs_review
    clear = bind_page(parsed_page(images[:1]), classification, [sku((0, 210, 100, 260))], "two_stage")
    assert not clear.needs_review and clear.status == "AI_COMPLETED" and clear.bindings[0].image_id == "a"
