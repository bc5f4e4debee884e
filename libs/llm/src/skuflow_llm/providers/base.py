"""The client interface every provider implements, and what a call returns (seed-002 §5, §13)."""

from __future__ import annotations

import abc
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

MICRO = 1_000_000


@dataclass(frozen=True)
class TokenUsage:
    input: int
    output: int

    @property
    def total(self) -> int:
        return self.input + self.output


@dataclass(frozen=True)
class Pricing:
    """US dollars per million tokens."""

    input_rate: float
    output_rate: float

    def cost_usd(self, usage: TokenUsage) -> float:
        return (usage.input * self.input_rate + usage.output * self.output_rate) / MICRO

    def estimate_usd(self, tokens: int) -> float:
        """Before the call only a total is known: assume half input, half output (seed-002 §4 step 3)."""
        return tokens * (self.input_rate + self.output_rate) / 2 / MICRO


@dataclass(frozen=True)
class GenerationConfig:
    max_tokens: int
    temperature: float
    json_output: bool


@dataclass(frozen=True)
class RawResponse:
    text: str
    tokens: TokenUsage
    latency_sec: float
    model: str
    cost_usd: float = 0.0
    was_fallback: bool = False
    fallback_reason: str | None = None
    images_truncated: bool = False
    images_used: int = 0


def image_mime_type(data: bytes) -> str:
    """Providers want a MIME type per image; catalog screenshots are PNG or JPEG, thumbnails sometimes WebP."""
    if data.startswith(b"\xff\xd8"):
        return "image/jpeg"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return "image/png"


def estimate_text_tokens(text: str) -> int:
    """About one token per CJK character and four characters per token otherwise."""
    cjk = sum(1 for char in text if "\u3000" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff")
    return cjk + (len(text) - cjk + 3) // 4


class LLMClient(abc.ABC):
    """One model at one endpoint. ``call`` sends at most ``max_images`` images and says when it dropped some."""

    provider: str
    image_tokens: int

    def __init__(self, model_name: str, *, max_images: int, timeout_sec: float, pricing: Pricing) -> None:
        self.model_name = model_name
        self.max_images = max_images
        self.timeout_sec = timeout_sec
        self.pricing = pricing

    def supports_structured_output(self) -> bool:
        return True

    def estimate_tokens(self, prompt: str, images: Sequence[bytes]) -> int:
        return estimate_text_tokens(prompt) + self.image_tokens * min(len(images), self.max_images)

    async def call(self, prompt: str, images: Sequence[bytes], config: GenerationConfig) -> RawResponse:
        sent = list(images[: self.max_images])
        started = time.perf_counter()
        text, usage, model = await self._generate(prompt, sent, config)
        return RawResponse(text=text, tokens=usage, latency_sec=time.perf_counter() - started, model=model,
                           cost_usd=self.pricing.cost_usd(usage), images_truncated=len(images) > len(sent),
                           images_used=len(sent))

    @abc.abstractmethod
    async def _generate(self, prompt: str, images: list[bytes], config: GenerationConfig
                        ) -> tuple[str, TokenUsage, str]:
        """Send one request; return (text, usage, model that answered) or raise ``ProviderError``."""

    @abc.abstractmethod
    async def probe(self) -> str:
        """Ask the endpoint about the model without generating anything (no tokens spent)."""

    async def close(self) -> None:  # noqa: B027 - optional hook
        """Release connections."""


def as_fallback(response: RawResponse, reason: str) -> RawResponse:
    return replace(response, was_fallback=True, fallback_reason=reason)
