"""Gemini through the google-genai SDK; ``response_mime_type=application/json`` forces JSON (seed-002 G2)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import httpx2
from google import genai
from google.genai import errors, types

from skuflow_llm.errors import FailureKind, ProviderError
from skuflow_llm.providers.base import GenerationConfig, LLMClient, Pricing, TokenUsage, image_mime_type


def failure_kind(status: int | None) -> FailureKind:
    if status == 429:
        return FailureKind.RATE_LIMITED
    return FailureKind.TIMEOUT if status in (408, 504) else FailureKind.ERROR


class GeminiClient(LLMClient):
    provider = "gcp.gemini"
    image_tokens = 258  # Gemini bills an image up to 384 px a side as 258 tokens

    def __init__(self, model_name: str, *, api_key: str, base_url: str | None = None, max_images: int = 16,
                 timeout_sec: float = 120, pricing: Pricing) -> None:
        super().__init__(model_name, max_images=max_images, timeout_sec=timeout_sec, pricing=pricing)
        options = types.HttpOptions(base_url=base_url, timeout=int(timeout_sec * 1000))
        self._client = genai.Client(api_key=api_key, http_options=options)

    @contextlib.contextmanager
    def _provider_errors(self) -> Iterator[None]:
        try:
            yield
        except errors.APIError as exc:
            raise ProviderError(f"Gemini answered {exc.code}: {exc.message}", failure_kind(exc.code),
                                self.model_name, exc.code) from exc
        except (TimeoutError, httpx2.TimeoutException) as exc:
            raise ProviderError(f"Gemini timed out after {self.timeout_sec}s", FailureKind.TIMEOUT,
                                self.model_name) from exc
        except httpx2.TransportError as exc:
            raise ProviderError(f"Gemini unreachable: {exc!r}", FailureKind.ERROR, self.model_name) from exc

    async def _generate(self, prompt: str, images: list[bytes], config: GenerationConfig
                        ) -> tuple[str, TokenUsage, str]:
        parts: list[types.Part | str] = [prompt]
        parts += [types.Part.from_bytes(data=image, mime_type=image_mime_type(image)) for image in images]
        request = types.GenerateContentConfig(
            max_output_tokens=config.max_tokens, temperature=config.temperature,
            response_mime_type="application/json" if config.json_output else None)
        with self._provider_errors():
            response = await self._client.aio.models.generate_content(
                model=self.model_name, contents=parts, config=request)
        usage = response.usage_metadata
        tokens = TokenUsage(input=(usage and usage.prompt_token_count) or 0,
                            output=(usage and usage.candidates_token_count) or 0)
        return response.text or "", tokens, response.model_version or self.model_name

    async def probe(self) -> str:
        with self._provider_errors():
            model = await self._client.aio.models.get(model=self.model_name)
        return model.name or self.model_name

    async def close(self) -> None:
        await self._client.aio.aclose()
