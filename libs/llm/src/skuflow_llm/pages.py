"""The context of a call about one page of a job, built the same way by every pipeline stage.

The page's LLM calls are counted across stages (``page_call_counter``, the cap of seed-000 §8.3),
so each stage passes on how many calls the page has used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from skuflow_llm.context import LLMCallContext, Operation, TextBlockLike


def page_context(operation: Operation, *, job_id: str, merchant_id: str | None, page: int, page_type: str | None,
                 text_blocks: Sequence[TextBlockLike], screenshot: bytes | None = None, calls_used: int = 0,
                 inputs: Mapping[str, Any] | None = None) -> LLMCallContext:
    ocr = sum(1 for block in text_blocks if getattr(block, "confidence", None) is not None)
    features = {"text_block_count": len(text_blocks), "ocr_ratio": ocr / len(text_blocks) if text_blocks else 0.0}
    return LLMCallContext(operation=operation, merchant_id=merchant_id, job_id=job_id, page_number=page,
                          page_type=page_type, text_blocks=list(text_blocks),
                          screenshots=[screenshot] if screenshot else [], features=features,
                          inputs=dict(inputs or {}), page_call_counter=calls_used)
