"""What a page trace bundle shows once it leaves the system (seed-001b §3.2, §10): a whitelist.

Only the fields named in ``VERBATIM`` (identifiers, hashes, storage keys, versions, enumerations,
machine reasons, the profile and the replay inputs that carry no text of the catalog's products)
are shown as they are. A price is masked wherever it stands; every other text has its phone
numbers, national ID numbers and currency amounts masked, and is cut to ``MAX_TEXT`` characters (a
model's answer among them). Numbers are scores, counts and coordinates and are shown. Images are
never in a trace: only their keys and content hashes.
"""

from __future__ import annotations

import re

MASK = "***"
MAX_TEXT = 500
PRICES = frozenset({"price"})
VERBATIM = frozenset({
    "stage", "job_id", "sku_id", "image_id", "task_id", "ir_uri", "ir_sha256", "screenshot_uri", "image_uris",
    "image_hashes", "source_uri", "path", "file_hash", "content_hash", "config_version", "reader_version",
    "version", "page_type", "layout", "status", "validity", "method", "extraction_method", "rules_method",
    "fallback_reason", "review_reasons", "evaluation_review", "triggered_rules", "quality_warning", "kind",
    "sources", "parser_backend", "role", "origin", "started_at", "profile", "previous_table", "lessons",
    "seen_images", "seen_perceptual", "notes",
})
SENSITIVE = (
    re.compile(r"(?<!\d)\d{17}[\dXx](?![\dA-Za-z])"),  # a national ID number (18 characters)
    re.compile(r"(?<![\d+])(?:\+?86[\s-]?)?1[3-9]\d{9}(?!\d)"),  # a mobile number
    re.compile(r"(?<![\d\w])(?:\(0\d{2,3}\)|0\d{2,3})[\s-]?\d{7,8}(?!\d)"),  # a landline with its area code
    re.compile(r"[¥￥$€£₩₽]\s*\d[\d,.]*|\d[\d,.]*\s*(?:元|円|원|RMB|CNY|USD|EUR)"),  # an amount of money
)


def mask_text(text: str) -> str:
    for pattern in SENSITIVE:
        text = pattern.sub(MASK, text)
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "…"


def redact(value: object, key: str | None = None) -> object:
    """``value`` (JSON-shaped) as a bundle may show it, ``key`` being the field that holds it."""
    if key in VERBATIM:
        return value
    if key in PRICES:
        return None if value is None else MASK
    if isinstance(value, dict):
        return {k: redact(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(item, key) for item in value]
    if isinstance(value, str):
        return mask_text(value)
    return value
