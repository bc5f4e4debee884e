"""Fixtures: a fake provider server the real SDKs talk to, a manual clock, and a service factory.

Also lets the tests import their page builders (``llm_pages``) under pytest's importlib mode.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from skuflow_llm.bootstrap import build_clients, build_llm_service
from skuflow_llm.clock import ManualClock
from skuflow_llm.settings import LLMSettings
from skuflow_llm.state.local import LocalState
from skuflow_llm.testing import FakeProviderServer

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def provider_server():
    with FakeProviderServer() as server:
        yield server


@pytest.fixture
def fake(provider_server):
    provider_server.reset()
    yield provider_server
    provider_server.reset()


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def settings_for(fake, tmp_path):
    def settings(**overrides) -> LLMSettings:
        values = {"gemini_api_key": "test-gemini-key", "gemini_base_url": fake.base_url,
                  "qwen_api_key": "test-qwen-key", "qwen_base_url": fake.openai_base_url,
                  "fixtures_dir": tmp_path / "fixtures", "langfuse_enabled": False, **overrides}
        return LLMSettings(**values)

    return settings


@pytest.fixture
async def make_service(settings_for, clock):
    """Build an ``LLMService`` against the fake server; ``state`` defaults to a fresh process-local store."""
    built = []

    def make(state=None, trace_sink=None, few_shots=None, **overrides):
        settings = settings_for(**overrides)
        service = build_llm_service(settings, clients=build_clients(settings), state=state or LocalState(),
                                    few_shots=few_shots, clock=clock, sleep=clock.sleep, trace_sink=trace_sink,
                                    rng=random.Random(7))
        built.append(service)
        return service

    yield make
    for service in built:
        await service.aclose()

