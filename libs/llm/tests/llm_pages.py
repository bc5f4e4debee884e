"""Page contexts and model names the LLM tests share."""

from __future__ import annotations

from skuflow_llm.context import LLMCallContext

GEMINI = "gemini-2.5-pro"
QWEN = "qwen-vl-max"

PNG = b"\x89PNG\r\n\x1a\n"


class Block:
    """A text block as the parser's IR gives it (only ``text`` and ``bbox`` matter here)."""

    def __init__(self, text: str, x: float = 50, y: float = 100) -> None:
        self.text = text
        self.bbox = (x, y, x + 100, y + 12)


class Image:
    def __init__(self, name: str) -> None:
        self.thumbnail = PNG + name.encode()


COMPLEX = {"has_fragmented_images": True, "ocr_ratio": 0.5}


def page(operation="classify_page", *, text=("型号: A-100", "价格: ¥399"), images=1, **fields) -> LLMCallContext:
    """A B/C page context; ``features=COMPLEX`` routes it to the primary model, the default to the standard."""
    fields.setdefault("page_type", "C")
    fields.setdefault("merchant_id", "m-1")
    fields.setdefault("job_id", "job-1")
    blocks = [Block(line, y=100 + 20 * n) for n, line in enumerate(text)]
    return LLMCallContext(operation, text_blocks=blocks, screenshots=[PNG + b"screenshot"],
                          images=[Image(f"img{n}") for n in range(images)], **fields)
