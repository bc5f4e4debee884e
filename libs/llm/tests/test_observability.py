"""Redaction, GenAI spans and the seed's Prometheus metrics."""

from __future__ import annotations

import json

import pytest
from llm_pages import COMPLEX, GEMINI, QWEN, page
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from prometheus_client import REGISTRY

from skuflow_llm.observability.langfuse import LangfuseSink
from skuflow_llm.observability.redaction import redact
from skuflow_llm.testing import Reply

PAGE_B = json.dumps({"page_type": "B", "confidence": 0.9})


@pytest.fixture(scope="module")
def spans():
    provider = trace.get_tracer_provider()
    if not isinstance(provider, TracerProvider):
        provider = TracerProvider()
        trace.set_tracer_provider(provider)
    exporter = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return exporter


@pytest.mark.parametrize("text, expected", [
    ("api_key=sk-123456 and password: hunter2", "[REDACTED] and [REDACTED]"),
    ("卡号6222021234567890123", "卡号[CARD_REDACTED]"),
    ("电话13812345678。", "电话[PHONE_REDACTED]。"),
    ("身份证11010519491231002X", "身份证[ID_REDACTED]"),
    ("ID 110105194912310021 end", "ID [ID_REDACTED] end"),
    ("model A-100, 12345678901 is not a mobile", "model A-100, 12345678901 is not a mobile"),
])
def test_secrets_and_personal_numbers_are_masked(text, expected):
    assert redact(text) == expected


def test_truncation_comes_before_redaction():
    text = "x" * 1995 + "13812345678"
    assert redact(text) == "x" * 1995 + "13812"  # the cut number is no longer a number to mask
    assert len(redact("y" * 5000)) == 2000


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_a_call_leaves_genai_spans_and_metrics(fake, make_service, spans):
    spans.clear()
    fake.script(GEMINI, Reply(status=500))
    fake.script(QWEN, Reply(PAGE_B, input_tokens=300, output_tokens=40))
    before = {status: sample("llm_api_call_total", model=GEMINI, operation="classify_page", status=status)
              for status in ("error", "success")}
    tokens_before = sample("llm_tokens_consumed_total", model=QWEN, operation="classify_page")

    await make_service().classify_page(page(features=COMPLEX))

    assert sample("llm_api_call_total", model=GEMINI, operation="classify_page", status="error") == before["error"] + 1
    assert sample("llm_tokens_consumed_total", model=QWEN, operation="classify_page") == tokens_before + 340
    assert sample("llm_route_total", operation="classify_page", page_type="C", complexity="complex",
                  route="GEMINI_PRO") >= 1
    assert sample("llm_parse_method_total", model=QWEN, method="json_direct") >= 1
    finished = {span.name: span for span in spans.get_finished_spans()}
    failed, answered, outer = finished[f"chat {GEMINI}"], finished[f"chat {QWEN}"], finished["llm classify_page"]
    assert failed.attributes["error.type"] == "error" and failed.status.status_code.name == "ERROR"
    assert answered.kind is trace.SpanKind.CLIENT
    assert {key: answered.attributes[key] for key in (
        "gen_ai.operation.name", "gen_ai.request.model", "gen_ai.response.model", "gen_ai.usage.input_tokens",
        "gen_ai.usage.output_tokens", "gen_ai.request.max_tokens")} == {
        "gen_ai.operation.name": "chat", "gen_ai.request.model": QWEN, "gen_ai.response.model": QWEN,
        "gen_ai.usage.input_tokens": 300, "gen_ai.usage.output_tokens": 40, "gen_ai.request.max_tokens": 4096}
    assert answered.parent.span_id == outer.context.span_id
    assert outer.attributes["skuflow.llm.model"] == QWEN and outer.attributes["skuflow.llm.calls_made"] == 2


def test_metric_names_are_the_seeds():
    from skuflow_llm.observability import metrics

    names = {collector._name for collector in vars(metrics).values() if hasattr(collector, "_name")}
    assert names >= {"llm_api_call", "llm_api_latency_seconds", "llm_tokens_consumed", "llm_circuit_state",
                     "llm_rate_limited", "llm_rate_downgrade", "llm_budget_downgrade", "llm_cost_usd_daily",
                     "llm_parse_method", "llm_parse_failure", "llm_response_length_chars", "llm_route",
                     "llm_semantic_degrade", "llm_injection_detected", "llm_call_limit", "llm_token_estimation_error",
                     "llm_state_store_fallback"}


async def test_langfuse_gets_redacted_prompt_and_answer(fake, make_service):
    class Recorder:
        def __init__(self):
            self.generations = []

        def trace(self, **kwargs):
            recorder = self

            class Trace:
                def generation(self, **fields):
                    recorder.generations.append({"trace": kwargs, **fields})

            return Trace()

    recorder = Recorder()
    fake.script(QWEN, Reply(json.dumps({"page_type": "B", "confidence": 0.9, "evidence": "tel 13812345678"})))
    await make_service(trace_sink=LangfuseSink(recorder)).classify_page(page(text=("联系 13900001111",)))
    [generation] = recorder.generations
    assert generation["name"] == "classify_page" and generation["model"] == QWEN
    assert "13900001111" not in generation["input"] and "[PHONE_REDACTED]" in generation["output"]
    assert generation["trace"]["metadata"]["route"] == "QWEN_STANDARD" and generation["usage"]["total"] == 1200
