"""The document's global attributes (BR-19): what the cover or first page says of every product —
its title, and labelled brand, series, material or colour ('品牌：…', 'Series: …') — shown to the
annotator of any page of the document."""

from __future__ import annotations

from skuflow_catalog.headers import labelled_value

from skuflow_contracts.ir import ParsedPage

GLOBAL_ROLES = ("brand", "category", "material", "color")
NAMES = {"category": "series"}
TITLE_MAX = 80


def global_attributes(page: ParsedPage) -> dict[str, str]:
    found: dict[str, str] = {}
    titled = [b for b in page.text_blocks if b.text.strip()]
    if titled:
        found["title"] = max(titled, key=lambda b: b.font_size).text.strip().replace("\n", " ")[:TITLE_MAX]
    for block in page.text_blocks:
        for line in block.text.splitlines():
            labelled = labelled_value(line.strip(), GLOBAL_ROLES)
            if labelled:
                found.setdefault(NAMES.get(labelled[0], labelled[0]), labelled[1].strip())
    return found
