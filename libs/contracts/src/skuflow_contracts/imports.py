"""The body of the HTTP import (docs/importer.md): what the output service POSTs to a downstream
receiver, one page of one revision. Receivers validate against its JSON schema,
schemas/http-import.schema.json (``python -m skuflow_contracts export-schemas``)."""

from __future__ import annotations

from pydantic import Field

from skuflow_contracts.envelope import Contract
from skuflow_contracts.results import ImageLink, ImageRole, SkuAttributes


class ImportedImage(ImageLink):
    role: ImageRole
    short_edge: int = Field(description="pixels")


class ImportedSku(Contract):
    key: str = Field(description="merchant/job/r<revision>/sku_id: create the SKU once per key")
    sku_id: str = Field(description="a display id: it repeats across merchants and re-uploads, do not dedupe on it")
    confidence: float = Field(ge=0, le=1)
    attributes: SkuAttributes = Field(description="the attributes read; one not read is absent")
    images: list[ImportedImage] = Field(default_factory=list)


class ImportedPage(Contract):
    """The page as downstream should hold it after this revision (its valid SKUs)."""

    key: str = Field(description="merchant/job/r<revision>/p<page>: also the call's Idempotency-Key")
    merchant_id: str
    job_id: str
    page: int = Field(ge=1)
    revision: int = Field(ge=1, description="a higher revision of the page replaces the earlier one")
    file_hash: str
    skus: list[ImportedSku]
