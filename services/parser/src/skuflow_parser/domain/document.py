"""Rules about a document as a whole: when it cannot be parsed, and why (user-facing reasons)."""

from __future__ import annotations

from skuflow_contracts.ir import BBox


class UnreadableDocument(Exception):
    """The PDF cannot be processed; ``reason`` is the machine-readable degrade reason."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def text_coverage(boxes: list[BBox], width: float, height: float) -> float:
    """Share of the page area covered by text boxes (clipped to the page, capped at 1)."""
    area = sum(max(0.0, min(x1, width) - max(x0, 0)) * max(0.0, min(y1, height) - max(y0, 0))
               for x0, y0, x1, y1 in boxes)
    return round(min(1.0, area / (width * height)), 4) if width and height else 0.0
