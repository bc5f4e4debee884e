"""What a caller tells the adapter about one call: the operation, the page and its inputs (seed-002 §5.1)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

Operation = Literal["eval_document", "classify_page", "classify_text", "classify_images", "classify_layout",
                    "extract_sku_attrs", "resolve_binding"]
OPERATIONS: tuple[Operation, ...] = ("eval_document", "classify_page", "classify_text", "classify_images",
                                     "classify_layout", "extract_sku_attrs", "resolve_binding")


class TextBlockLike(Protocol):
    """A positioned text block; ``skuflow_contracts.ir.TextBlock`` fits."""

    @property
    def text(self) -> str: ...
    @property
    def bbox(self) -> tuple[float, float, float, float]: ...


class PageImageLike(Protocol):
    @property
    def thumbnail(self) -> bytes: ...


class PromptProfile(Protocol):
    """The part of a threshold profile the prompts use: its category and per-template experiment versions."""

    @property
    def category(self) -> str | None: ...
    @property
    def prompt_experiment(self) -> Mapping[str, str]: ...


@dataclass(frozen=True)
class LLMCallContext:
    """Immutable (C11): the operation is fixed at construction; ``clone`` derives a context for another one.

    ``inputs`` carries the operation's own template inputs (binding candidates, attribute names, …).
    ``page_call_counter`` is the number of LLM calls the page has already used (C10); the adapter reports
    the calls it made in ``ExecuteResult.calls_made`` so the caller can keep the count.
    """

    operation: Operation
    merchant_id: str | None = None
    job_id: str | None = None
    category: str | None = None
    page_type: str | None = None
    page_number: int | None = None
    screenshots: Sequence[bytes] = ()
    text_blocks: Sequence[TextBlockLike] = ()
    features: Mapping[str, Any] = field(default_factory=dict)
    images: Sequence[PageImageLike] = ()
    profile: PromptProfile | None = None
    inputs: Mapping[str, Any] = field(default_factory=dict)
    force_model: str | None = None
    is_retry: bool = False
    semantic_failure_count: int = 0
    experiment_bucket: str | None = None
    page_call_counter: int = 0

    def __post_init__(self) -> None:
        if self.operation not in OPERATIONS:
            raise ValueError(f"unknown LLM operation {self.operation!r}")

    def clone(self, operation: Operation, **changes: Any) -> LLMCallContext:
        return dataclasses.replace(self, operation=operation, **changes)

    def collected_images(self) -> list[bytes]:
        """Screenshots first, then image thumbnails: the order the prompts describe them in."""
        return [*self.screenshots, *(image.thumbnail for image in self.images)]
