"""OpenTelemetry spans that follow a job across Kafka hops through the W3C traceparent header."""

from __future__ import annotations

import os

from opentelemetry import context, trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import ConsoleSpanExporter, SimpleSpanProcessor
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

_propagator = TraceContextTextMapPropagator()


def configure_tracing(service: str) -> None:
    """Install an SDK tracer provider; spans are printed only when SKUFLOW_TRACE_CONSOLE=1."""
    provider = TracerProvider(resource=Resource.create({"service.name": f"skuflow-{service}"}))
    if os.environ.get("SKUFLOW_TRACE_CONSOLE") == "1":
        provider.add_span_processor(SimpleSpanProcessor(ConsoleSpanExporter()))
    trace.set_tracer_provider(provider)


def tracer() -> trace.Tracer:
    return trace.get_tracer("skuflow")


def current_traceparent() -> str | None:
    carrier: dict[str, str] = {}
    _propagator.inject(carrier)
    return carrier.get("traceparent")


def context_from(traceparent: str | None) -> context.Context:
    return _propagator.extract({"traceparent": traceparent} if traceparent else {})


def trace_id_of(traceparent: str | None) -> str | None:
    """The trace id part of a traceparent header (``00-<trace>-<span>-<flags>``)."""
    if not traceparent or traceparent.count("-") != 3:
        return None
    return traceparent.split("-")[1]
