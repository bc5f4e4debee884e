"""OpenTelemetry spans that follow a job across Kafka hops through the W3C traceparent header.

Export and sampling use the standard OpenTelemetry variables, so a collector's own instructions apply
unchanged (docs/tracing.md): ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` (the full URL) or
``OTEL_EXPORTER_OTLP_ENDPOINT`` (the collector's base URL) turns on OTLP/HTTP export in batches;
``OTEL_TRACES_SAMPLER=parentbased_traceidratio`` with ``OTEL_TRACES_SAMPLER_ARG`` samples a ratio of the
new traces while every hop follows its producer's decision. ``SKUFLOW_TRACE_CONSOLE=1`` prints spans
(development); ``SKUFLOW_TRACE_UI_URL`` is the gateway's link from a job to its trace.
"""

from __future__ import annotations

import os
from contextlib import AbstractContextManager

from opentelemetry import context, trace
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator
from opentelemetry.util.types import AttributeValue
from pydantic_settings import BaseSettings, SettingsConfigDict

from skuflow_contracts.envelope import EventEnvelope

_propagator = TraceContextTextMapPropagator()
OTLP_ENDPOINTS = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
UNTRACED_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})


class TraceSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SKUFLOW_TRACE_", extra="ignore")

    console: bool = False  # SKUFLOW_TRACE_CONSOLE=1: spans printed on stdout as they end
    # SKUFLOW_TRACE_UI_URL: where an operator sees a trace, "{trace_id}" in it replaced (Jaeger, Tempo)
    ui_url: str = ""


def _untraced(scope: dict) -> bool:
    return scope.get("path") in UNTRACED_PATHS


# FastAPI's own telemetry (``FastAPI(telemetry=...)``): a span per request, continuing a caller's traceparent
# and exported with ours; not its per-operation spans nor probes and scrapes (they would bury the jobs'
# traces), no exporter of its own beside ours, no metrics or logs (Prometheus and the JSON logs have them)
HTTP_TELEMETRY = {"tracing": True, "operation_spans": False, "metrics": False, "logs": False,
                  "auto_configure": False, "exclude": _untraced}


def otlp_exporter() -> OTLPSpanExporter | None:
    """The OTLP/HTTP exporter when a collector endpoint is configured; it reads the endpoint itself."""
    if not any(os.environ.get(name) for name in OTLP_ENDPOINTS):
        return None
    return OTLPSpanExporter()


def tracer_provider(service: str) -> TracerProvider:
    """An SDK provider for ``service``; its sampler comes from OTEL_TRACES_SAMPLER (default: all)."""
    provider = TracerProvider(resource=Resource.create({"service.name": f"skuflow-{service}"}))
    if (exporter := otlp_exporter()) is not None:
        provider.add_span_processor(BatchSpanProcessor(exporter))
    if TraceSettings().console:
        provider.add_span_processor(SimpleSpanProcessor(ConsoleSpanExporter()))
    return provider


def configure_tracing(service: str) -> None:
    """Install the process's provider once: a service is one process, the first one configured names it
    (tests build several apps in one process; OpenTelemetry keeps the first provider anyway)."""
    if not isinstance(trace.get_tracer_provider(), TracerProvider):
        trace.set_tracer_provider(tracer_provider(service))


def tracer() -> trace.Tracer:
    return trace.get_tracer("skuflow")


def attributes(**fields: AttributeValue | None) -> dict[str, AttributeValue]:
    """Span attributes under ``skuflow.`` (as the LLM spans name theirs), those without a value left out."""
    return {f"skuflow.{name}": value for name, value in fields.items() if value is not None}


def event_attributes(topic: str, envelope: EventEnvelope) -> dict[str, AttributeValue]:
    """What an operator looks a consumer span up by: the job, its merchant, the page, the event, the topic."""
    return {**attributes(job_id=envelope.job_id, merchant_id=envelope.merchant_id, event_id=str(envelope.event_id),
                         page=getattr(envelope.payload, "page", None)),
            "messaging.system": "kafka", "messaging.destination.name": topic}


def stage(name: str, **fields: AttributeValue | None) -> AbstractContextManager[trace.Span]:
    """A child span around one stage's main work inside a handler (parse page, classify, bind, …)."""
    return tracer().start_as_current_span(name, attributes=attributes(**fields))


def log_fields() -> dict[str, str]:
    """The current span's ids for a log line, so a line is found from its trace and the trace from the
    line; nothing outside a span. An unsampled span has ids too: its lines still join across services."""
    span = trace.get_current_span().get_span_context()
    if not span.is_valid:
        return {}
    return {"trace_id": trace.format_trace_id(span.trace_id), "span_id": trace.format_span_id(span.span_id)}


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


def recorded_trace_id(traceparent: str | None) -> str | None:
    """The trace id of a sampled traceparent; None for a trace no collector was sent (not sampled)."""
    span = trace.get_current_span(context_from(traceparent)).get_span_context()
    return trace.format_trace_id(span.trace_id) if span.is_valid and span.trace_flags.sampled else None


def trace_url(template: str, trace_id: str | None) -> str | None:
    """``template`` (SKUFLOW_TRACE_UI_URL) for the trace, or None without either."""
    return template.replace("{trace_id}", trace_id) if template and trace_id else None
