"""`skuflow llm check` reports configuration and reachability and never generates (spends nothing)."""

import pytest

from skuflow_cli.main import main
from skuflow_llm.testing import FakeProviderServer, Reply


@pytest.fixture
def providers(monkeypatch):
    for name in ("GEMINI_API_KEY", "QWEN_API_KEY", "STATE_DATABASE_URL", "RECORDING_MODE"):
        monkeypatch.delenv(f"SKUFLOW_LLM_{name}", raising=False)
    with FakeProviderServer() as server:
        monkeypatch.setenv("SKUFLOW_LLM_GEMINI_BASE_URL", server.base_url)
        monkeypatch.setenv("SKUFLOW_LLM_QWEN_BASE_URL", server.openai_base_url)
        yield server


def test_nothing_configured_is_fine(providers, capsys):
    assert main(["llm", "check"]) == 0
    out = capsys.readouterr().out
    assert out.count("not configured") == 2 and "SKUFLOW_LLM_GEMINI_API_KEY is empty" in out
    assert "deterministic engines" in out


def test_configured_providers_are_probed_without_generating(providers, monkeypatch, capsys):
    monkeypatch.setenv("SKUFLOW_LLM_GEMINI_API_KEY", "k")
    monkeypatch.setenv("SKUFLOW_LLM_QWEN_API_KEY", "k")
    providers.default("gemini-2.5-pro", Reply())
    providers.default("qwen-vl-max", Reply())
    assert main(["llm", "check"]) == 0
    assert capsys.readouterr().out.count("reachable") == 2
    assert providers.requests == []


def test_an_unreachable_provider_fails_the_check(providers, monkeypatch, capsys):
    monkeypatch.setenv("SKUFLOW_LLM_QWEN_API_KEY", "k")
    monkeypatch.setenv("SKUFLOW_LLM_QWEN_MODEL", "unknown-model")
    assert main(["llm", "check"]) == 1
    out = capsys.readouterr().out
    assert "unknown-model" in out and "UNREACHABLE" in out and "404" in out
