"""Parse a whole document and store each page's IR and images (shared by the service and the CLI)."""

from __future__ import annotations

from dataclasses import dataclass

import pymupdf

from skuflow_contracts.ir import ParsedPage
from skuflow_parser.backends.pymupdf_backend import ImageCache, document_facts, open_document
from skuflow_parser.domain.document import UnreadableDocument
from skuflow_parser.domain.security import SecurityLimits, rejection
from skuflow_parser.pages import PageParse, ParserConfig, parse_page
from skuflow_platform.storage import LocalStorage, sha256_hex


@dataclass(frozen=True)
class StoredPage:
    page: ParsedPage
    ir_uri: str
    ir_hash: str


def store_page(parsed: PageParse, *, job_id: str, storage: LocalStorage) -> StoredPage:
    """Images and screenshot first, then the IR that points at them; keys are deterministic (re-runs overwrite)."""
    prefix = f"jobs/{job_id}/pages/{parsed.page.page:04d}"
    images = []
    for placed in parsed.images:
        region = placed.region
        uri = storage.put(f"{prefix}/images/{region.image_id}.{region.ext}", placed.data) if placed.data else None
        images.append(region.model_copy(update={"uri": uri}))
    shot = storage.put(f"{prefix}/screenshot.jpeg", parsed.screenshot) if parsed.screenshot else None
    page = parsed.page.model_copy(update={"images": images, "screenshot_uri": shot})
    body = page.model_dump_json().encode()
    return StoredPage(page, storage.put(f"{prefix}/ir.json", body), sha256_hex(body))


@dataclass(frozen=True)
class StorePage:
    """``store_page`` as a worker's next step (picklable): the page's images and IR are written where it
    was parsed, and only the stored page, not its image bytes, comes back."""

    job_id: str
    storage: LocalStorage

    def __call__(self, parsed: PageParse) -> StoredPage:
        return store_page(parsed, job_id=self.job_id, storage=self.storage)


def open_checked(pdf: bytes, limits: SecurityLimits | None = None) -> pymupdf.Document:
    """Open a PDF that passes the security check, or raise UnreadableDocument saying why not."""
    limits = limits or SecurityLimits()
    doc = open_document(pdf)
    refused = rejection(document_facts(doc, limits), limits)
    if refused:
        doc.close()
        raise UnreadableDocument(*refused)
    return doc


def parse_and_store(pdf: bytes, *, job_id: str, file_hash: str, storage: LocalStorage,
                    config: ParserConfig | None = None) -> list[StoredPage]:
    doc = open_checked(pdf)
    cache = ImageCache()
    try:
        return [store_page(parse_page(doc, index, file_hash, cache, config), job_id=job_id, storage=storage)
                for index in range(doc.page_count)]
    finally:
        doc.close()
