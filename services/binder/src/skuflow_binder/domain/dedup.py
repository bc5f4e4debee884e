"""Image records and dedup by role before binding (seed-001a §7.16, BR-28, C11).

Logos and decorations repeat on every page: one copy per job is kept, the rest are duplicates,
found by the exact content hash (MD5) or a perceptual hash a few bits away (the same logo
re-encoded or rescaled). Deliverable pictures are deduplicated only within their page and only
on the exact hash: two colours of one product photographed alike are near in perceptual hash but
are different pictures, each bound to its own SKU.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skuflow_contracts.ir import ImageRegion, ParsedPage
from skuflow_contracts.results import ImageRecord, ImageRole, PageClassification

JOB_WIDE_ROLES: tuple[ImageRole, ...] = ("LOGO", "DECORATION")
NEAR_DUPLICATE_BITS = 4  # dHash bits two placements of one photo may differ by


@dataclass
class SeenImages:
    """Content and perceptual hashes of the job's logos and decorations kept so far."""

    hashes: set[str] = field(default_factory=set)
    perceptual: set[str] = field(default_factory=set)

    def knows(self, image: ImageRegion) -> bool:
        return image.content_hash in self.hashes or any(near(image.perceptual_hash, p) for p in self.perceptual)

    def learn(self, image: ImageRegion) -> None:
        self.hashes.add(image.content_hash)
        if image.perceptual_hash:
            self.perceptual.add(image.perceptual_hash)


def dedup_scope(role: ImageRole) -> str:
    """Where a duplicate of this role was looked for (the seed's metric label)."""
    return "global" if role in JOB_WIDE_ROLES else "page"


def near(a: str | None, b: str | None) -> bool:
    return bool(a and b) and bin(int(a, 16) ^ int(b, 16)).count("1") <= NEAR_DUPLICATE_BITS


def _is_duplicate(image: ImageRegion, role: ImageRole, kept: list[ImageRegion], seen: SeenImages) -> bool:
    if role in JOB_WIDE_ROLES:
        return seen.knows(image)
    return any(image.content_hash == other.content_hash for other in kept)


def image_records(page: ParsedPage, classification: PageClassification, seen: SeenImages) -> list[ImageRecord]:
    """One record per placed image, duplicates flagged; ``seen`` learns this page's logos."""
    kept: list[ImageRegion] = []
    records = []
    for image in page.images:
        role = classification.image_roles.get(image.image_id, "PRODUCT_MAIN")
        duplicate = _is_duplicate(image, role, kept, seen)
        if not duplicate:
            if role in JOB_WIDE_ROLES:
                seen.learn(image)
            else:
                kept.append(image)
        records.append(ImageRecord(
            image_id=image.image_id, bbox=image.bbox, role=role, short_edge=image.short_edge,
            is_duplicate=duplicate,
            # INV-03 tolerant mode (T78): a small image is flagged, never blocked.
            quality_warning=image.quality_warning or (None if image.search_eligible else "low_resolution"),
            source_uri=image.uri,
        ))
    return records
