"""Trace export as configured by the environment, against a stand-in collector speaking OTLP/HTTP."""

import pytest

from skuflow_platform.tracing import (
    context_from,
    current_traceparent,
    otlp_exporter,
    recorded_trace_id,
    trace_url,
    tracer_provider,
)
from tests.otlp_collector import FakeCollector

SAMPLED_PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
OTEL_VARIABLES = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_TRACES_SAMPLER",
                  "OTEL_TRACES_SAMPLER_ARG")


@pytest.fixture
def collector(monkeypatch):
    for name in OTEL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    with FakeCollector().running() as running:
        yield running


def emit(service: str, name: str, traceparent: str | None = None) -> str | None:
    """One span of ``service`` under ``traceparent``, flushed; returns the traceparent it propagates."""
    provider = tracer_provider(service)
    with provider.get_tracer("test").start_as_current_span(name, context=context_from(traceparent)):
        propagated = current_traceparent()
    provider.shutdown()
    return propagated


def test_without_an_endpoint_nothing_is_exported(collector):
    assert otlp_exporter() is None
    emit("gateway", "unsent")
    assert collector.spans == []


def test_the_collectors_base_url_gets_spans_on_the_otlp_traces_path(collector, monkeypatch):
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.url)
    assert otlp_exporter() is not None
    propagated = emit("parser", "parse page", SAMPLED_PARENT)
    span = collector.named("parse page")
    assert (span.path, span.service) == ("/v1/traces", "skuflow-parser")
    assert span.trace_id == "4bf92f3577b34da6a3ce929d0e0e4736" and span.parent_span_id == "00f067aa0ba902b7"
    assert propagated == f"00-{span.trace_id}-{span.span_id}-01"


def test_a_traces_endpoint_is_taken_as_the_full_url(collector, monkeypatch):
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9/unused")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", f"{collector.url}/tempo/otlp/traces")
    emit("binder", "bind")
    assert collector.named("bind").path == "/tempo/otlp/traces"


def test_a_ratio_sampler_drops_new_traces_and_follows_a_sampled_producer(collector, monkeypatch):
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.url)
    monkeypatch.setenv("OTEL_TRACES_SAMPLER", "parentbased_traceidratio")
    monkeypatch.setenv("OTEL_TRACES_SAMPLER_ARG", "0")
    unsampled = emit("gateway", "upload catalog")
    continued = emit("classifier", "classify", SAMPLED_PARENT)
    assert [span.name for span in collector.spans] == ["classify"]
    assert recorded_trace_id(unsampled) is None  # a job links to no trace nobody holds
    assert recorded_trace_id(continued) == "4bf92f3577b34da6a3ce929d0e0e4736"


def test_the_trace_link_fills_the_template():
    assert trace_url("https://tempo.example.com/trace/{trace_id}?x=1", "ab" * 16) == \
        f"https://tempo.example.com/trace/{'ab' * 16}?x=1"
    assert trace_url("", "ab" * 16) is None and trace_url("https://j/trace/{trace_id}", None) is None
