"""Binding by layout-tiered distance, conflict resolution, ambiguity to a human, variants, methods."""

import pytest
from binder_pages import THRESHOLDS, img, sku

from skuflow_binder.domain.binding import bbox_distance, bind_skus, infer_method


def bind(skus, images, layout="L1"):
    return {b.sku_id: b for b in bind_skus(skus, images, layout, THRESHOLDS)}


def test_distance_is_between_edges_and_zero_when_touching():
    assert bbox_distance((0, 0, 10, 10), (13, 14, 20, 20)) == 5.0
    assert bbox_distance((0, 0, 10, 10), (5, 5, 20, 20)) == 0.0


def test_the_nearest_image_binds_with_confidence_one_minus_d_over_the_layouts_threshold():
    [binding] = bind([sku((40, 298, 260, 360))], [img("own", (40, 90, 260, 290))], "L2").values()
    assert (binding.image_id, binding.confidence, binding.method) == ("own", 0.92, "grid_alignment")
    assert not binding.is_ambiguous and binding.candidates == []


@pytest.mark.parametrize("layout, bound, confidence", [
    ("L1", True, 0.55), ("L3", True, 0.4), ("L2", True, 0.1), ("L4", False, 0.0), (None, True, 0.4)])
def test_each_layout_has_its_own_distance_threshold(layout, bound, confidence):
    [binding] = bind([sku((0, 0, 100, 10))], [img("pic", (0, 100, 100, 200))], layout).values()  # d = 90
    assert (binding.image_id == "pic", binding.confidence) == (bound, confidence)
    assert binding.method == ("none" if not bound else binding.method)


def test_in_a_dense_grid_each_caption_binds_to_its_own_photo_not_the_one_below():
    photos = [img(f"p{r}", (50, 20 + 110 * r, 250, 100 + 110 * r)) for r in range(3)]
    captions = [sku((50, 102 + 110 * r, 250, 124 + 110 * r), n=r + 1) for r in range(3)]  # own photo 2 pt, next 6
    bindings = bind(captions, photos, "L2")
    assert {b.sku_id: b.image_id for b in bindings.values()} == {"h_p01_001": "p0", "h_p01_002": "p1",
                                                                 "h_p01_003": "p2"}
    assert not any(b.is_ambiguous for b in bindings.values())
    assert bindings["h_p01_001"].confidence == 0.98  # the next photo (0.94) is within the gap but claimed


def test_two_unclaimed_images_within_the_gap_leave_the_sku_unbound_with_its_top_candidates():
    images = [img("left", (0, 100, 100, 200)), img("right", (220, 100, 320, 200)), img("top", (110, 0, 210, 60)),
              img("bottom", (110, 260, 210, 300))]
    [binding] = bind([sku((110, 120, 210, 180))], images).values()
    assert binding.image_id is None and binding.is_ambiguous
    assert [c.image_id for c in binding.candidates] == ["left", "right", "top"]
    assert [c.confidence for c in binding.candidates] == [0.95, 0.95, 0.7]
    assert binding.confidence == 0.95


def test_a_rival_further_than_the_gap_does_not_make_the_binding_ambiguous():
    images = [img("near", (0, 20, 100, 100)), img("far", (0, 150, 100, 250))]  # confidences 0.9 and 0.65
    [binding] = bind([sku((0, 0, 100, 0))], images).values()
    assert (binding.image_id, binding.confidence, binding.is_ambiguous) == ("near", 0.9, False)


def test_variants_of_one_group_share_one_image():
    variants = [sku((300, 100 + 20 * n, 500, 115 + 20 * n), n=n, group="g1") for n in (1, 2, 3)]
    other = sku((300, 600, 500, 615), n=4)
    bindings = bind([*variants, other], [img("cup", (50, 100, 250, 300)), img("bowl", (50, 560, 250, 760))])
    assert [bindings[f"h_p01_{n:03d}"].image_id for n in (1, 2, 3, 4)] == ["cup", "cup", "cup", "bowl"]


def test_without_a_group_one_image_is_never_bound_to_two_skus():
    twins = [sku((300, 100, 500, 115), n=1), sku((300, 120, 500, 135), n=2)]
    bindings = bind(twins, [img("cup", (50, 100, 250, 300))])
    assert [b.image_id for b in bindings.values()].count("cup") == 1
    assert bindings["h_p01_002"].method == "none"


@pytest.mark.parametrize("image", [img("logo", (0, 12, 10, 20), role="LOGO"),
                                   img("detail", (0, 12, 10, 20), role="DETAIL"),
                                   img("deco", (0, 12, 10, 20), role="DECORATION"),
                                   img("dup", (0, 12, 10, 20), duplicate=True)])
def test_duplicates_and_roles_other_than_product_main_are_never_bound(image):
    [binding] = bind([sku((0, 0, 10, 10))], [image]).values()
    assert (binding.image_id, binding.confidence, binding.method) == (None, 0.0, "none")


def test_a_nearer_detail_does_not_take_the_product_pictures_place():
    [binding] = bind([sku((0, 0, 100, 10))], [img("d", (0, 12, 50, 40), role="DETAIL"),
                                                img("main", (0, 60, 100, 160))]).values()
    assert binding.image_id == "main"


@pytest.mark.parametrize("sku_box, image_box, layout, method", [
    ((0, 300, 100, 350), (0, 0, 100, 200), "L1", "vertical_stack"),
    ((300, 0, 400, 100), (0, 0, 100, 100), "L3", "reading_order"),
    ((150, 150, 200, 200), (0, 0, 100, 100), None, "spatial_proximity"),
    ((300, 0, 400, 100), (0, 0, 100, 100), "L2", "grid_alignment"),
])
def test_binding_method_follows_the_geometry(sku_box, image_box, layout, method):
    assert infer_method(sku_box, image_box, layout) == method


@pytest.mark.parametrize("sku_box, image_box, layout, method", [
    ((0, 210, 100, 250), (0, 0, 100, 200), "L1", "vertical_stack"),
    ((110, 0, 230, 100), (0, 0, 100, 100), "L1", "reading_order"),
    ((110, 110, 160, 160), (0, 0, 100, 100), "L1", "spatial_proximity"),
    ((0, 102, 100, 130), (0, 0, 100, 100), "L2", "grid_alignment"),
])
def test_bindings_record_their_method(sku_box, image_box, layout, method):
    [binding] = bind([sku(sku_box)], [img("pic", image_box)], layout).values()
    assert (binding.image_id, binding.method) == ("pic", method)
