"""A job's SKUs as the uploader browses them: flattened from the pages' latest readings, filtered,
and exported as CSV with one column per attribute."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from skuflow_contracts.results import ATTRIBUTE_NAMES, PageResult

CSV_COLUMNS = ("sku_id", "page", "validity", "confidence", *ATTRIBUTE_NAMES, "image_id", "needs_review")


def sku_rows(pages: Iterable[PageResult]) -> list[dict]:
    rows = []
    for page in sorted(pages, key=lambda p: p.page):
        bound = {b.sku_id: b.image_id for b in page.bindings}
        for sku in page.skus:
            rows.append({"sku_id": sku.sku_id, "page": page.page, "validity": sku.validity,
                         "confidence": sku.confidence, **sku.attributes.model_dump(),
                         "custom_attributes": sku.custom_attributes, "image_id": bound.get(sku.sku_id),
                         "needs_review": page.needs_review})
    return rows


def matches(row: dict, validity: str | None, text: str | None) -> bool:
    """``text`` is found, case-blind, in any attribute."""
    if validity and row["validity"] != validity:
        return False
    if text:
        wanted = text.casefold()
        return any(wanted in str(row[name]).casefold() for name in ATTRIBUTE_NAMES if row[name])
    return True


def to_csv(rows: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()
