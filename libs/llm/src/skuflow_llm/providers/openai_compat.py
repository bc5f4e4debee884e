"""Qwen (DashScope compatible mode), vLLM, Ollama, …: anything that speaks OpenAI chat.completions."""

from __future__ import annotations

import base64
import contextlib
from collections.abc import Iterator

import openai

from skuflow_llm.errors import FailureKind, ProviderError
from skuflow_llm.providers.base import GenerationConfig, LLMClient, Pricing, TokenUsage, image_mime_type
from skuflow_llm.providers.gemini import failure_kind


def data_url(image: bytes) -> str:
    return f"data:{image_mime_type(image)};base64,{base64.b64encode(image).decode()}"


class OpenAICompatibleClient(LLMClient):
    provider = "openai_compatible"
    image_tokens = 1280  # Qwen-VL's default ceiling per image (28×28-pixel patches)

    def __init__(self, model_name: str, *, api_key: str, base_url: str, max_images: int = 8,
                 timeout_sec: float = 90, pricing: Pricing) -> None:
        super().__init__(model_name, max_images=max_images, timeout_sec=timeout_sec, pricing=pricing)
        # The adapter's own retry layers decide about retries; the SDK must not retry behind them.
        self._client = openai.AsyncOpenAI(api_key=api_key, base_url=base_url, timeout=timeout_sec, max_retries=0)

    @contextlib.contextmanager
    def _provider_errors(self) -> Iterator[None]:
        try:
            yield
        except openai.APITimeoutError as exc:
            raise ProviderError(f"{self.model_name} timed out after {self.timeout_sec}s", FailureKind.TIMEOUT,
                                self.model_name) from exc
        except openai.APIStatusError as exc:
            raise ProviderError(f"{self.model_name} answered {exc.status_code}: {exc.message}",
                                failure_kind(exc.status_code), self.model_name, exc.status_code) from exc
        except openai.APIError as exc:
            raise ProviderError(f"{self.model_name} unreachable: {exc}", FailureKind.ERROR, self.model_name) from exc

    async def _generate(self, prompt: str, images: list[bytes], config: GenerationConfig
                        ) -> tuple[str, TokenUsage, str]:
        content = [{"type": "text", "text": prompt}]
        content += [{"type": "image_url", "image_url": {"url": data_url(image)}} for image in images]
        extra = {"response_format": {"type": "json_object"}} if config.json_output else {}
        with self._provider_errors():
            completion = await self._client.chat.completions.create(
                model=self.model_name, messages=[{"role": "user", "content": content}],
                max_tokens=config.max_tokens, temperature=config.temperature, **extra)
        usage = completion.usage
        tokens = TokenUsage(input=usage.prompt_tokens if usage else 0, output=usage.completion_tokens if usage else 0)
        text = completion.choices[0].message.content if completion.choices else None
        return text or "", tokens, completion.model or self.model_name

    async def probe(self) -> str:
        with self._provider_errors():
            model = await self._client.models.retrieve(self.model_name)
        return model.id

    async def close(self) -> None:
        await self._client.close()
