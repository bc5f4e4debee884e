"""The truth a generated document is scored against, in the shape of GOLDEN_FORMAT §2.

Layouts fill these while they draw, so the truth holds exactly what was printed and where.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pymupdf

from skuflow_cli.golden.vocabulary import FIELDS


@dataclass
class SkuTruth:
    model: str | None
    product_name: str
    price: str | None
    size: str | None = None
    color: str | None = None
    material: str | None = None
    image_bbox: list[float] | None = None

    @property
    def key(self) -> str:
        """GOLDEN_FORMAT §3: the model if there is one, else the product name."""
        return self.model or self.product_name

    def shown(self, fields: tuple[str, ...]) -> SkuTruth:
        """This SKU as a page prints it: the fields left out are unknown to a reader, so null."""
        hidden = {name: None for name in FIELDS if name not in fields and name not in ("model", "product_name")}
        return replace(self, **hidden)

    def as_json(self) -> dict:
        data = {"model": self.model, "product_name": self.product_name, "price": self.price, "size": self.size,
                "color": self.color, "material": self.material}
        if self.image_bbox is not None:
            data["image_bbox"] = self.image_bbox
        return data


@dataclass
class PageTruth:
    page: int
    page_type: str
    layout: str | None
    uncertain: bool = False
    skus: list[SkuTruth] = field(default_factory=list)
    features: set[str] = field(default_factory=set)

    def add(self, sku: SkuTruth, image: pymupdf.Rect | None = None) -> None:
        """Record a printed SKU; ``image`` is its only product picture on this page, if it has exactly one."""
        if image is not None:
            sku.image_bbox = bbox(image)
        if any(other.key == sku.key for other in self.skus):
            raise ValueError(f"page {self.page}: SKU key {sku.key!r} printed twice")
        self.skus.append(sku)

    def as_json(self) -> dict:
        return {"page": self.page, "page_type": self.page_type, "layout": self.layout, "uncertain": self.uncertain,
                "skus": [s.as_json() for s in self.skus], "features": sorted(self.features)}


@dataclass
class DocumentTruth:
    language: str
    expected_route: str
    pages: list[PageTruth]

    @property
    def features(self) -> list[str]:
        return sorted(set().union(*(p.features for p in self.pages)))

    def as_json(self) -> dict:
        return {"language": self.language, "expected_route": self.expected_route, "features": self.features,
                "pages": [p.as_json() for p in self.pages]}


def bbox(rect: pymupdf.Rect) -> list[float]:
    return [round(v, 2) for v in rect]
