"""Record provider answers as fixtures, and replay them without a network (seed-001b §3.3).

A fixture is keyed by everything that shapes an answer: model, prompt, the images sent (by hash) and the
generation settings. Replay serves exactly what was recorded, so offline evaluation runs are
deterministic; a request never recorded is an error, not a guess.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

from skuflow_llm.errors import FixtureMissingError
from skuflow_llm.providers.base import GenerationConfig, LLMClient, TokenUsage


def request_key(model: str, prompt: str, images: list[bytes], config: GenerationConfig) -> dict:
    return {"model": model, "prompt": prompt, "images": [hashlib.sha256(image).hexdigest() for image in images],
            "config": dataclasses.asdict(config)}


def fixture_path(fixtures_dir: Path, request: dict) -> Path:
    digest = hashlib.sha256(json.dumps(request, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    return fixtures_dir / request["model"].replace("/", "_") / f"{digest[:32]}.json"


class RecordingClient(LLMClient):
    """Calls the real client and writes each answer it gets as a fixture."""

    def __init__(self, inner: LLMClient, fixtures_dir: Path) -> None:
        super().__init__(inner.model_name, max_images=inner.max_images, timeout_sec=inner.timeout_sec,
                         pricing=inner.pricing)
        self.inner = inner
        self.provider = inner.provider
        self.image_tokens = inner.image_tokens
        self.fixtures_dir = fixtures_dir

    async def _generate(self, prompt: str, images: list[bytes], config: GenerationConfig
                        ) -> tuple[str, TokenUsage, str]:
        text, usage, model = await self.inner._generate(prompt, images, config)
        request = request_key(self.model_name, prompt, images, config)
        path = fixture_path(self.fixtures_dir, request)
        path.parent.mkdir(parents=True, exist_ok=True)
        answer = {"text": text, "input_tokens": usage.input, "output_tokens": usage.output, "model": model}
        path.write_text(json.dumps({"request": request, "response": answer}, ensure_ascii=False, indent=1))
        return text, usage, model

    async def probe(self) -> str:
        return await self.inner.probe()

    async def close(self) -> None:
        await self.inner.close()


class ReplayClient(LLMClient):
    """Answers from recorded fixtures only; never opens a connection."""

    provider = "replay"
    image_tokens = 258

    def __init__(self, model_name: str, fixtures_dir: Path, **limits) -> None:
        super().__init__(model_name, **limits)
        self.fixtures_dir = fixtures_dir

    async def _generate(self, prompt: str, images: list[bytes], config: GenerationConfig
                        ) -> tuple[str, TokenUsage, str]:
        path = fixture_path(self.fixtures_dir, request_key(self.model_name, prompt, images, config))
        if not path.is_file():
            raise FixtureMissingError(f"no recorded answer for this {self.model_name} request", "FIXTURE_MISSING",
                                      {"fixture": str(path)})
        answer = json.loads(path.read_text())["response"]
        return answer["text"], TokenUsage(answer["input_tokens"], answer["output_tokens"]), answer["model"]

    async def probe(self) -> str:
        count = len(list((self.fixtures_dir / self.model_name.replace("/", "_")).glob("*.json")))
        return f"replay of {count} recorded answers"
