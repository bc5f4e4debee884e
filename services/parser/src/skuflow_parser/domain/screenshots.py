"""Which pages get a screenshot: rendering every page would cost more than the rest of the parse,
and only some pages are ever looked at as a picture."""

from __future__ import annotations

from typing import Literal

from skuflow_contracts.ir import ParsedPage

ScreenshotPolicy = Literal["always", "never", "needed"]


def wants_screenshot(policy: ScreenshotPolicy, page: ParsedPage, text_layer_rejected: bool) -> bool:
    """``needed``: pages whose text layer was rejected (OCR'd, or left for a person when OCR is off or
    failed), pages without any text, and pages with a picture rasterized from tiles."""
    if policy != "needed":
        return policy == "always"
    return text_layer_rejected or not page.text_blocks or any(image.is_fragmented for image in page.images)
