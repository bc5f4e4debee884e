"""Where a page's pictures are, and their bytes.

One ``get_image_info(xrefs=True)`` pass lists every placement, embedded or inline, with the xref
MuPDF matched it to (by pixel digest); an embedded image is decoded once per document, and the
placements without an xref are inline images (``BI … ID … EI`` in a content stream, no xref), whose bytes come from
the page's image blocks. Tiles of one picture are rasterized as one image (30 s limit), and
decorations below the size floor are recorded by their box only.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import logging
from dataclasses import dataclass, field

import pymupdf

from skuflow_contracts.ids import image_id
from skuflow_contracts.ir import BBox, ImageRegion, union
from skuflow_parser.backends.image_hash import dhash
from skuflow_parser.backends.pymupdf_backend import EmbeddedImage, ImageCache, displayed, inline_image, rotation_of
from skuflow_parser.domain.images import DECORATION_MAX_SIDE, is_decoration, tile_groups
from skuflow_parser.metrics import RASTERIZE_TIMEOUTS

RASTERIZE_TIMEOUT_S = 30
RASTERIZE_DPI = 150
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Placement:
    box: BBox
    xref: int  # 0 for an inline image
    number: int  # its block on the page, where an inline image's bytes are


@dataclass
class PlacedImage:
    region: ImageRegion
    data: bytes


@dataclass
class PageImages:
    placed: list[PlacedImage] = field(default_factory=list)
    decorations: list[BBox] = field(default_factory=list)
    placements: int = 0  # pictures the page places, tiles and decorations included: text set as pictures shows


def _drawn_once(page: pymupdf.Page) -> list[_Placement] | None:
    """The fast path for an upright page whose every image is drawn once: each image's box, from the
    content stream, without decoding a pixel; None when any placement is not accounted for that way.
    Placements pair with images by pixel size where sizes tell them apart, otherwise by each image's
    box (one more pass over the page's content per image)."""
    if page.rotation:
        return None
    by_box = {_rounded(info["bbox"]): info for info in page.get_image_info()}  # one placement per box
    infos = list(by_box.values())
    items = page.get_images(full=True)
    if len(infos) != len(items) or len({item[0] for item in items}) != len(items):
        return None
    by_size = {(info["width"], info["height"], info["bpc"]): info for info in infos}
    if len(by_size) == len(infos) and len({item[2:5] for item in items}) == len(items):
        pairs = [(item, by_size.get(item[2:5])) for item in items]
    else:
        pairs = [(item, by_box.get(_rounded(page.get_image_bbox(item)))) for item in items]
    if any(info is None for _, info in pairs):
        return None
    found = [_Placement(displayed(info["bbox"], None), item[0], info["number"]) for item, info in pairs]
    return found if len({placement.number for placement in found}) == len(found) else None


def _rounded(box) -> tuple:
    return tuple(round(v, 1) for v in box)


def _placements(page: pymupdf.Page) -> list[_Placement]:
    matrix = rotation_of(page)
    found = _drawn_once(page) or [
        _Placement(displayed(info["bbox"], matrix), info.get("xref") or 0, info["number"])
        for info in page.get_image_info(xrefs=True)]
    found = [p for p in found if not (pymupdf.Rect(p.box).is_empty or pymupdf.Rect(p.box).is_infinite)]
    return sorted(found, key=lambda placement: (placement.box[1], placement.box[0]))


def _inline_images(page: pymupdf.Page, placements: list[_Placement]) -> dict[int, EmbeddedImage]:
    """Bytes of the inline images by block number (this decodes the page's images: only when needed)."""
    numbers = {placement.number for placement in placements if not placement.xref}
    if not numbers:
        return {}
    blocks = page.get_text("dict", flags=pymupdf.TEXT_PRESERVE_IMAGES)["blocks"]
    return {block["number"]: inline_image(block) for block in blocks
            if block["type"] == 1 and block["number"] in numbers}


def _rasterize(page: pymupdf.Page, box: BBox) -> tuple[bytes | None, str | None]:
    """Render one region (fragmented tiles → one picture): its PNG, or None and why not (over 30 s,
    or MuPDF refused, e.g. a region of no size once clipped to the page)."""
    clip = pymupdf.Rect(box) * page.derotation_matrix
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        future = pool.submit(lambda: page.get_pixmap(clip=clip, dpi=RASTERIZE_DPI).tobytes("png"))
        try:
            return future.result(timeout=RASTERIZE_TIMEOUT_S), None
        except concurrent.futures.TimeoutError:
            RASTERIZE_TIMEOUTS.inc()
            return None, "rasterize_timeout"
        except Exception as exc:  # one picture lost, not the page
            log.warning("rasterizing a picture failed", extra={"fields": {"page": page.number + 1, "error": str(exc)}})
            return None, "rasterize_failed"


def page_images(doc: pymupdf.Document, page: pymupdf.Page, file_hash: str, cache: ImageCache,
                decoration_floor: float = DECORATION_MAX_SIDE) -> PageImages:
    number = page.number + 1
    placements = _placements(page)
    fragmented = tile_groups([placement.box for placement in placements])
    in_group = {i for group in fragmented for i in group}
    singles = [placement for i, placement in enumerate(placements) if i not in in_group]
    found = PageImages(decorations=[p.box for p in singles if is_decoration(p.box, decoration_floor)],
                       placements=len(placements))
    pictures = [p for p in singles if not is_decoration(p.box, decoration_floor)]
    inline = _inline_images(page, pictures)

    for placement in pictures:
        image = cache.get(doc, placement.xref) if placement.xref else inline.get(placement.number)
        if image is None:  # MuPDF listed an image it then did not return, or could not decode it
            log.warning("image not readable", extra={"fields": {"page": number, "block": placement.number}})
            continue
        _add(found, file_hash, number, placement.box, image.data, image.ext, image.width, image.height, image.md5,
             perceptual_hash=image.perceptual_hash)
    for group in fragmented:
        _add_rendered(found, page, file_hash, union([placements[i].box for i in group]), is_fragmented=True)
    return found


def cut_from_scan(page: pymupdf.Page, found: PageImages, boxes: list[BBox], file_hash: str,
                  decoration_floor: float = DECORATION_MAX_SIDE) -> PageImages:
    """``found`` with the pictures printed on a scanned page (``boxes``, displayed points) rendered
    out of it as images of their own: a scanned catalogue's product photos, to bind to its products."""
    for box in boxes:
        if is_decoration(box, decoration_floor):
            found.decorations.append(box)
        else:
            _add_rendered(found, page, file_hash, box)
    return found


def _add(found: PageImages, file_hash: str, number: int, box: BBox, data: bytes, ext: str, width: int,
         height: int, md5: str, **extra: object) -> None:
    ident = image_id(file_hash, number, len(found.placed) + 1)
    found.placed.append(PlacedImage(ImageRegion(image_id=ident, bbox=box, width_px=width, height_px=height,
                                                content_hash=md5, ext=ext, **extra), data))


def _add_rendered(found: PageImages, page: pymupdf.Page, file_hash: str, box: BBox, **extra: object) -> None:
    """The region rendered as one picture (a failure kept as a warning on an empty image)."""
    data, failure = _rasterize(page, box)
    width = round((box[2] - box[0]) * RASTERIZE_DPI / 72)
    height = round((box[3] - box[1]) * RASTERIZE_DPI / 72)
    if data is None:
        _add(found, file_hash, page.number + 1, box, b"", "png", width, height, "", quality_warning=failure, **extra)
    else:
        _add(found, file_hash, page.number + 1, box, data, "png", width, height, hashlib.md5(data).hexdigest(),
             perceptual_hash=dhash(data), **extra)
