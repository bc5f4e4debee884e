"""Calls about one page of a job, built the same way by every pipeline stage.

The page's LLM calls are counted across stages (``calls_used``, the cap of seed-000 §8.3), so each
stage passes on how many calls the page has used and what they cost.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

from skuflow_llm.context import LLMCallContext, Operation, TextBlockLike


class ParsedPageLike(Protocol):
    """The parts of a parsed page (``skuflow_contracts.ir.ParsedPage``) a call about it needs."""

    @property
    def page(self) -> int: ...
    @property
    def text_blocks(self) -> Sequence[TextBlockLike]: ...
    @property
    def screenshot_uri(self) -> str | None: ...


@dataclass(frozen=True)
class PageCall:
    job_id: str
    merchant_id: str | None
    page: int
    text_blocks: Sequence[TextBlockLike]
    screenshot_uri: str | None = None
    read: Callable[[str], bytes] | None = None  # claim-check storage; the screenshot is read only for a call
    calls_used: int = 0

    @classmethod
    def of(cls, page: ParsedPageLike, *, job_id: str, merchant_id: str | None, read: Callable[[str], bytes],
           calls_used: int = 0) -> PageCall:
        return cls(job_id, merchant_id, page.page, page.text_blocks, page.screenshot_uri, read, calls_used)

    @cached_property
    def screenshot(self) -> bytes | None:
        return self.read(self.screenshot_uri) if self.screenshot_uri and self.read else None

    def context(self, operation: Operation, page_type: str | None, *, extra_calls: int = 0,
                inputs: Mapping[str, Any] | None = None) -> LLMCallContext:
        blocks, screenshot = list(self.text_blocks), self.screenshot
        ocr = sum(1 for block in blocks if getattr(block, "confidence", None) is not None)
        features = {"text_block_count": len(blocks), "ocr_ratio": ocr / len(blocks) if blocks else 0.0}
        return LLMCallContext(operation=operation, merchant_id=self.merchant_id, job_id=self.job_id,
                              page_number=self.page, page_type=page_type, text_blocks=blocks,
                              screenshots=[screenshot] if screenshot else [], features=features,
                              inputs=dict(inputs or {}), page_call_counter=self.calls_used + extra_calls)


@dataclass(frozen=True)
class Spent:
    """What a stage's calls for a page used: added to the page's tally on its next event."""

    calls: int = 0
    cost_usd: float = 0.0

    def __add__(self, other: Spent) -> Spent:
        return Spent(self.calls + other.calls, self.cost_usd + other.cost_usd)
