"""Calls about one page of a job, built the same way by every pipeline stage.

The page's LLM calls are counted across stages (``calls_used``, the cap of seed-000 §8.3), so each
stage passes on how many calls the page has used and what they cost.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from skuflow_llm.context import LLMCallContext, Operation, TextBlockLike


@dataclass(frozen=True)
class PageCall:
    job_id: str
    merchant_id: str | None
    page: int
    text_blocks: Sequence[TextBlockLike]
    screenshot: bytes | None = None
    calls_used: int = 0

    def context(self, operation: Operation, page_type: str | None, *, extra_calls: int = 0,
                inputs: Mapping[str, Any] | None = None) -> LLMCallContext:
        blocks = list(self.text_blocks)
        ocr = sum(1 for block in blocks if getattr(block, "confidence", None) is not None)
        features = {"text_block_count": len(blocks), "ocr_ratio": ocr / len(blocks) if blocks else 0.0}
        return LLMCallContext(operation=operation, merchant_id=self.merchant_id, job_id=self.job_id,
                              page_number=self.page, page_type=page_type, text_blocks=blocks,
                              screenshots=[self.screenshot] if self.screenshot else [], features=features,
                              inputs=dict(inputs or {}), page_call_counter=self.calls_used + extra_calls)


@dataclass(frozen=True)
class Spent:
    """What a stage's calls for a page used: added to the page's tally on its next event."""

    calls: int = 0
    cost_usd: float = 0.0

    def __add__(self, other: Spent) -> Spent:
        return Spent(self.calls + other.calls, self.cost_usd + other.cost_usd)
