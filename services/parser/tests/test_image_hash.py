"""Perceptual hashes find the same picture re-encoded, and tell different pictures apart."""

from pdf_samples import picture

from skuflow_contracts.ir import ImageRegion
from skuflow_parser.backends.image_hash import dhash


def distance(a: str, b: str) -> int:
    return bin(int(a, 16) ^ int(b, 16)).count("1")


def test_a_re_encoded_picture_stays_close_and_another_picture_is_far():
    png = picture().tobytes("png")
    jpeg = picture().tobytes("jpeg", jpg_quality=40)
    other = picture(650, 700)
    other.invert_irect(other.irect)
    assert dhash(png) == dhash(png) and len(dhash(png)) == 16
    assert distance(dhash(png), dhash(jpeg)) <= 4
    assert distance(dhash(png), dhash(other.tobytes("png"))) >= 16
    assert dhash(b"not an image") is None


def test_search_eligibility_follows_the_640_px_short_edge_rule():
    def region(w, h):
        return ImageRegion(image_id="i", bbox=(0, 0, 1, 1), width_px=w, height_px=h, content_hash="x")

    assert region(640, 2000).search_eligible and not region(639, 2000).search_eligible
