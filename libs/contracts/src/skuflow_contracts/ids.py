"""Stable identifiers: the same document always yields the same ids (idempotent imports rely on it)."""

from __future__ import annotations


def sku_id(file_hash: str, page: int, seq: int) -> str:
    return f"{file_hash[:8]}_p{page:02d}_{seq:03d}"


def image_id(file_hash: str, page: int, seq: int) -> str:
    return f"img_{file_hash[:8]}_p{page:02d}_{seq:03d}"


def delivery_key(merchant_id: str, job_id: str, revision: int, sku_id: str) -> str:
    """The key a downstream importer dedupes on: unique per merchant, job and revision.

    ``sku_id`` alone repeats for every upload of the same file by any merchant (it is derived
    from the file hash, page and row, for display); this key does not.
    """
    return f"{merchant_id}/{job_id}/r{revision}/{sku_id}"
