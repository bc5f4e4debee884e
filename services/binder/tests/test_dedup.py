"""Image dedup by role before binding: logos and decorations job-wide, deliverables within a page."""

from binder_pages import classification, parsed_page, region
from prometheus_client import REGISTRY

from skuflow_binder.domain.dedup import SeenImages, image_records, near
from skuflow_binder.metrics import count_duplicates

LOGO = {"logo": "LOGO"}


def duplicates(page, roles, seen):
    return [r.is_duplicate for r in image_records(page, classification(roles=roles), seen)]


def test_a_logo_is_kept_once_per_job_by_its_content_hash():
    seen = SeenImages()
    assert duplicates(parsed_page(region("logo", content="L")), LOGO, seen) == [False]
    assert duplicates(parsed_page(region("logo", content="L"), number=2), LOGO, seen) == [True]
    assert duplicates(parsed_page(region("logo", content="M"), number=3), LOGO, seen) == [False]


def test_a_re_encoded_logo_is_found_by_its_perceptual_hash_a_few_bits_away():
    seen = SeenImages()
    duplicates(parsed_page(region("logo", content="L", phash="ffff0000ffff0000")), LOGO, seen)
    assert duplicates(parsed_page(region("logo", content="L2", phash="ffff0000ffff000f")), LOGO, seen) == [True]
    assert duplicates(parsed_page(region("logo", content="L3", phash="ffff0000ffff00ff")), LOGO, seen) == [False]


def test_decorations_repeated_on_one_page_are_kept_once():
    page = parsed_page(region("d1", content="D"), region("d2", content="D"))
    assert duplicates(page, {"d1": "DECORATION", "d2": "DECORATION"}, SeenImages()) == [False, True]


def test_a_product_picture_is_deduplicated_within_its_page_only_and_on_the_exact_hash_only():
    seen = SeenImages()
    same = parsed_page(region("a", content="P"), region("b", content="P"))
    assert duplicates(same, {}, seen) == [False, True]
    assert duplicates(parsed_page(region("a", content="P"), number=2), {}, seen) == [False]  # a new page
    alike = parsed_page(region("red", content="R", phash="ffff0000ffff0000"),
                        region("blue", content="B", phash="ffff0000ffff0001"))
    assert duplicates(alike, {}, seen) == [False, False]  # two colours photographed alike
    assert seen.hashes == set() and seen.perceptual == set()  # deliverables never enter the job-wide set


def test_a_product_picture_equal_to_a_known_logo_is_still_a_product_picture():
    seen = SeenImages()
    duplicates(parsed_page(region("logo", content="X")), LOGO, seen)
    assert duplicates(parsed_page(region("pic", content="X"), number=2), {}, seen) == [False]


def test_records_carry_role_quality_and_source():
    page = parsed_page(region("big", px=700), region("small", px=300), region("logo", content="L"))
    big, small, logo = image_records(page, classification(roles={"logo": "LOGO"}), SeenImages())
    assert (big.role, big.short_edge, big.quality_warning) == ("PRODUCT_MAIN", 700, None)  # unknown role: product
    assert small.quality_warning == "low_resolution"  # INV-03 tolerant: flagged, not dropped
    assert logo.role == "LOGO" and big.bbox == (50, 100, 250, 300)


def test_near_counts_differing_bits():
    assert near("00", "0f") and not near("00", "1f")
    assert not near(None, "00") and not near("00", None)


def removed(role: str, scope: str) -> float:
    return REGISTRY.get_sample_value("image_dedup_removed_total", {"role": role, "scope": scope}) or 0.0


def test_removed_images_are_counted_by_role_and_scope():
    before = removed("LOGO", "global"), removed("PRODUCT_MAIN", "page")
    seen = SeenImages()
    count_duplicates(image_records(parsed_page(region("logo", content="L")), classification(roles=LOGO), seen))
    count_duplicates(image_records(parsed_page(region("logo", content="L"), region("a", content="P"),
                                               region("b", content="P"), number=2),
                                   classification(roles=LOGO), seen))
    assert (removed("LOGO", "global"), removed("PRODUCT_MAIN", "page")) == (before[0] + 1, before[1] + 1)
