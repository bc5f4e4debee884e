"""Products named only by the captions under their pictures (a grid of photos without codes or prices)."""

from __future__ import annotations

from skuflow_catalog.captions import captioned

from skuflow_contracts.ir import BBox
from skuflow_extractor.domain.drafts import SkuDraft
from skuflow_extractor.domain.words import Line

CAPTION_EVIDENCE = 0.7  # a name under a photo, with nothing else to go by: a person should confirm it


def named_pictures(pictures: list[BBox], lines: list[Line]) -> list[SkuDraft]:
    """One product per captioned picture of a product grid, named by its caption's first line."""
    drafts = []
    for _, c in captioned(pictures, [(line.bbox, line.text) for line in lines]):
        draft = SkuDraft(origin="card", boxes=[lines[c].bbox], evidence=CAPTION_EVIDENCE)
        draft.set("product_name", lines[c].text, source="caption")
        drafts.append(draft)
    return drafts
