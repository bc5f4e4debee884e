"""Parse a whole document and store each page's IR and images (shared by the service and the CLI)."""

from __future__ import annotations

from dataclasses import dataclass

from skuflow_contracts.ir import ParsedPage
from skuflow_parser.backends.pymupdf_backend import open_document, parse_page
from skuflow_platform.storage import LocalStorage, sha256_hex


@dataclass(frozen=True)
class StoredPage:
    page: ParsedPage
    ir_uri: str
    ir_hash: str


def parse_and_store(pdf: bytes, *, job_id: str, file_hash: str, storage: LocalStorage) -> list[StoredPage]:
    """Every page as IR in storage; keys are deterministic, so a re-run overwrites, never duplicates."""
    doc = open_document(pdf)
    stored: list[StoredPage] = []
    try:
        for index in range(doc.page_count):
            parsed = parse_page(doc, index, file_hash)
            prefix = f"jobs/{job_id}/pages/{parsed.page.page:04d}"
            images = [
                image.model_copy(update={"uri": storage.put(f"{prefix}/images/{image.image_id}.{image.ext}",
                                                            parsed.image_bytes[image.image_id])})
                for image in parsed.page.images
            ]
            page = parsed.page.model_copy(update={"images": images})
            body = page.model_dump_json().encode()
            stored.append(StoredPage(page, storage.put(f"{prefix}/ir.json", body), sha256_hex(body)))
    finally:
        doc.close()
    return stored
