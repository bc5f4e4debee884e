"""What may leave the process in traces: at most 2000 characters, with secrets and personal numbers masked.

Truncation comes first (seed-002 §5.10), so a pattern cut in half at the end is not what gets masked.
ID-card numbers are masked before card numbers: the seed's order let an all-digit 18-digit ID become a
"card", which hides what was found. Digit runs are delimited by "not a digit" rather than ``\b``: in
"电话13812345678" there is no word boundary between 话 and 1, so ``\b`` would let the number through.
"""

from __future__ import annotations

import re

MAX_TRACE_CHARS = 2000
REDACTIONS = (
    (re.compile(r"(?i)(api[_-]?key|secret|password|token)\s*[:=]\s*\S+"), "[REDACTED]"),
    (re.compile(r"(?<!\d)\d{17}[\dXx](?![\dA-Za-z])"), "[ID_REDACTED]"),
    (re.compile(r"(?<!\d)\d{13,19}(?!\d)"), "[CARD_REDACTED]"),
    (re.compile(r"(?<!\d)1[3-9]\d{9}(?!\d)"), "[PHONE_REDACTED]"),
)


def redact(text: str, limit: int = MAX_TRACE_CHARS) -> str:
    text = text[:limit]
    for pattern, replacement in REDACTIONS:
        text = pattern.sub(replacement, text)
    return text
