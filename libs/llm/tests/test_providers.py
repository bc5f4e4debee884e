"""Each provider client on its own: the real SDK, a local server, the failures it maps."""

from __future__ import annotations

import pytest
from llm_pages import PNG

from skuflow_llm import LLMSettings, optional_llm_service
from skuflow_llm.bootstrap import build_clients
from skuflow_llm.errors import FailureKind, ProviderError
from skuflow_llm.providers import GeminiClient, GenerationConfig, OpenAICompatibleClient, Pricing
from skuflow_llm.providers.base import estimate_text_tokens, image_mime_type
from skuflow_llm.testing import Reply

CONFIG = GenerationConfig(max_tokens=100, temperature=0.1, json_output=False)
IMAGES = [PNG + bytes([n]) for n in range(5)]


@pytest.fixture(params=["gemini", "openai"])
async def client(request, fake):
    if request.param == "gemini":
        made = GeminiClient("g-model", api_key="k", base_url=fake.base_url, max_images=3, timeout_sec=0.2,
                            pricing=Pricing(1.25, 10.0))
    else:
        made = OpenAICompatibleClient("o-model", api_key="k", base_url=fake.openai_base_url, max_images=3,
                                      timeout_sec=0.2, pricing=Pricing(1.25, 10.0))
    yield made
    await made.close()


async def test_an_answer_with_usage_cost_and_truncated_images(client, fake):
    fake.script(client.model_name, Reply("plain text", input_tokens=2000, output_tokens=100))
    response = await client.call("prompt", IMAGES, CONFIG)
    assert (response.text, response.tokens.total, response.model) == ("plain text", 2100, client.model_name)
    assert response.cost_usd == pytest.approx(2000 * 1.25e-6 + 100 * 10e-6)
    assert (response.images_truncated, response.images_used) == (True, 3)
    body = fake.seen(client.model_name)[0].body
    assert "responseMimeType" not in body.get("generationConfig", {}) and "response_format" not in body


@pytest.mark.parametrize("reply, kind", [
    (Reply(delay=3), FailureKind.TIMEOUT),
    (Reply(status=500), FailureKind.ERROR),
    (Reply(status=503), FailureKind.ERROR),
    (Reply(status=429), FailureKind.RATE_LIMITED),
    (Reply(status=504), FailureKind.TIMEOUT),
])
async def test_failures_become_provider_errors(client, fake, reply, kind):
    fake.script(client.model_name, reply)
    with pytest.raises(ProviderError) as caught:
        await client.call("prompt", [], CONFIG)
    assert caught.value.kind is kind and caught.value.model == client.model_name


async def test_probe_asks_about_the_model_without_generating(client, fake):
    with pytest.raises(ProviderError):
        await client.probe()
    fake.default(client.model_name, Reply())
    assert client.model_name in await client.probe()
    assert fake.requests == []  # look-ups only: nothing was generated


async def test_an_unreachable_endpoint_is_a_provider_error():
    client = OpenAICompatibleClient("o", api_key="k", base_url="http://127.0.0.1:1/v1", pricing=Pricing(1, 1))
    with pytest.raises(ProviderError) as caught:
        await client.call("p", [], CONFIG)
    assert caught.value.kind is FailureKind.ERROR
    await client.close()


def test_token_estimates_and_image_types():
    assert estimate_text_tokens("型号价格") == 4 and estimate_text_tokens("abcdefgh") == 2
    assert [image_mime_type(b) for b in (PNG, b"\xff\xd8\xff", b"RIFF1234WEBPVP8")] == [
        "image/png", "image/jpeg", "image/webp"]


def test_nothing_configured_means_no_adapter_and_no_client(monkeypatch):
    for name in ("SKUFLOW_LLM_GEMINI_API_KEY", "SKUFLOW_LLM_QWEN_API_KEY", "SKUFLOW_LLM_RECORDING_MODE"):
        monkeypatch.delenv(name, raising=False)
    settings = LLMSettings(gemini_base_url="http://127.0.0.1:9", qwen_base_url="http://127.0.0.1:9/v1")
    assert build_clients(settings) == [] and optional_llm_service(settings) is None
