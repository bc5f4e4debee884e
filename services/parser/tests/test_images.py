"""Inline images (no xref) are extracted like embedded ones; decorations below the floor are only recorded."""

import hashlib

import pymupdf
import pytest
from pdf_samples import born_digital, picture, with_decorations, with_inline_images

from skuflow_contracts.ir import ParsedPage
from skuflow_parser.backends.image_hash import dhash
from skuflow_parser.backends.pymupdf_backend import ImageCache, open_document
from skuflow_parser.pages import ParserConfig, parse_page
from skuflow_parser.pipeline import parse_and_store
from skuflow_platform.storage import LocalStorage

HASH = "5a5a5a5a" * 8


def parse(data: bytes, config: ParserConfig | None = None):
    return parse_page(open_document(data), 0, HASH, ImageCache(), config)


def test_inline_images_become_image_regions_with_bytes_and_hashes():
    data = with_inline_images((60, 200, 260, 350), (320, 200, 520, 350))
    assert pymupdf.open(stream=data)[0].get_images() == []  # nothing to find by xref
    parsed = parse(data)
    first, second = parsed.page.images
    assert first.bbox == pytest.approx((60, 200, 260, 350)) and second.bbox == pytest.approx((320, 200, 520, 350))
    assert (first.width_px, first.height_px) == (64, 48) and first.image_id.endswith("_p01_001")
    placed = parsed.images[0]
    assert pymupdf.Pixmap(placed.data).width == 64
    assert first.content_hash == hashlib.md5(placed.data).hexdigest() and first.perceptual_hash


def test_inline_images_are_stored_by_claim_check(tmp_path):
    storage = LocalStorage(tmp_path)
    [stored] = parse_and_store(with_inline_images((60, 200, 260, 350)), job_id="j", file_hash=HASH, storage=storage)
    [image] = stored.page.images
    assert image.uri and storage.get(image.uri).startswith(b"\x89PNG")


def test_decorations_below_the_floor_are_recorded_but_not_stored(tmp_path):
    parsed = parse(with_decorations())
    assert [region.bbox for region in parsed.page.images] == [pytest.approx((60, 420, 300, 640))]
    assert sorted(parsed.page.decorations) == [pytest.approx((60, 100, 68, 108)), pytest.approx((300, 100, 310, 110))]
    assert parsed.page.features["image_count"] == 1.0
    [stored] = parse_and_store(with_decorations(), job_id="j", file_hash=HASH, storage=LocalStorage(tmp_path))
    assert len(list(tmp_path.rglob("*.png")) + list(tmp_path.rglob("*.jpeg"))) == 1
    assert len(stored.page.decorations) == 2


def test_the_floor_is_configurable_and_an_ir_without_the_new_fields_still_loads():
    assert len(parse(with_decorations(), ParserConfig(decoration_floor=0)).page.images) == 3
    old = ParsedPage(page=1, width=1, height=1, parser_backend="pymupdf").model_dump(
        exclude={"decorations", "screenshot_uri"})
    assert ParsedPage.model_validate(old).decorations == []


def test_a_flate_picture_is_stored_as_a_png_of_its_own_pixels_hashed_like_any_png():
    data = born_digital().tobytes(deflate=True)  # its picture, inserted from a pixmap, is stored as Flate
    [xref] = [image[0] for image in pymupdf.open(stream=data)[0].get_images()]
    assert pymupdf.open(stream=data).xref_get_key(xref, "Filter")[1] == "/FlateDecode"
    parsed = parse(data)
    [placed], [region] = parsed.images, parsed.page.images
    assert placed.data.startswith(b"\x89PNG") and region.ext == "png"
    assert pymupdf.Pixmap(placed.data).samples == pymupdf.Pixmap(pymupdf.open(stream=data), xref).samples
    assert region.perceptual_hash == dhash(placed.data) and region.content_hash == hashlib.md5(placed.data).hexdigest()


def test_an_image_mupdf_cannot_decode_loses_that_picture_not_the_page(monkeypatch):
    import pymupdf as mupdf_module
    from pdf_samples import born_digital

    from skuflow_parser.backends import pymupdf_backend
    from skuflow_parser.backends.pymupdf_backend import ImageCache
    from skuflow_parser.pages import ParserConfig, parse_page

    def refuse(doc, xref):
        raise RuntimeError("code=4: color pixmap must not have an alpha channel")

    monkeypatch.setattr(pymupdf_backend, "_image", refuse)
    doc = mupdf_module.open(stream=born_digital().tobytes(), filetype="pdf")
    parsed = parse_page(doc, 0, "ab" * 32, ImageCache(), ParserConfig(ocr_enabled=False)).page
    assert parsed.status == "ok" and "SF-0012" in parsed.raw_text and parsed.images == []


@pytest.mark.parametrize("sizes", [((120, 90), (60, 45)), ((80, 60), (80, 60))])
def test_each_embedded_picture_keeps_its_own_box(sizes):
    """Placements pair with their images by pixel size, or by box when two images share a size."""
    doc = pymupdf.open()
    page = doc.new_page()
    boxes = [(60, 100, 260, 250), (320, 400, 520, 550)]
    for shade, ((width, height), box) in enumerate(zip(sizes, boxes, strict=True)):
        pixels = picture(width, height)
        pixels.set_pixel(0, 0, (100 * shade,) * 3)  # two images, not one placed twice
        page.insert_image(box, pixmap=pixels)
    assert len(page.get_images()) == 2
    placed = parse(doc.tobytes()).page.images
    assert [(region.width_px, region.height_px) for region in placed] == list(sizes)
    assert [region.bbox for region in placed] == [pytest.approx(box) for box in boxes]


def test_a_picture_drawn_twice_on_one_spot_is_one_image():
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_image((320, 400, 520, 550), pixmap=picture(80, 60))
    [content] = page.get_contents()
    doc.update_stream(content, doc.xref_stream(content) * 2)  # the same XObject drawn again, same place
    assert len(page.get_image_info()) == 2 and len(page.get_images()) == 1
    assert len(parse(doc.tobytes()).page.images) == 1
