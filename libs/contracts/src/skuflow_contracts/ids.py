"""Stable identifiers: the same document always yields the same ids (idempotent imports rely on it)."""

from __future__ import annotations


def sku_id(file_hash: str, page: int, seq: int) -> str:
    return f"{file_hash[:8]}_p{page:02d}_{seq:03d}"


def image_id(file_hash: str, page: int, seq: int) -> str:
    return f"img_{file_hash[:8]}_p{page:02d}_{seq:03d}"
