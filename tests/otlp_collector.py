"""A stand-in OpenTelemetry collector for tests: it accepts OTLP/HTTP protobuf on any path and keeps
the spans it received, decoded with opentelemetry-proto, so a test sees what a real collector would."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry import trace
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.util._once import Once


@dataclass(frozen=True)
class ReceivedSpan:
    path: str  # where the exporter posted it
    service: str  # its resource's service.name
    name: str
    trace_id: str
    span_id: str
    parent_span_id: str
    attributes: dict[str, object]


def _value(any_value) -> object:
    return getattr(any_value, any_value.WhichOneof("value"))


class FakeCollector:
    def __init__(self) -> None:
        self.spans: list[ReceivedSpan] = []
        received = self.spans

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                request = ExportTraceServiceRequest.FromString(self.rfile.read(int(self.headers["Content-Length"])))
                for resource_spans in request.resource_spans:
                    service = next(_value(a.value) for a in resource_spans.resource.attributes
                                   if a.key == "service.name")
                    received.extend(ReceivedSpan(self.path, service, span.name, span.trace_id.hex(), span.span_id.hex(),
                                                 span.parent_span_id.hex(),
                                                 {a.key: _value(a.value) for a in span.attributes})
                                    for scope_spans in resource_spans.scope_spans for span in scope_spans.spans)
                body = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    @contextlib.contextmanager
    def running(self) -> Iterator[FakeCollector]:
        thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self._server.shutdown()
            self._server.server_close()

    def named(self, name: str) -> ReceivedSpan:
        [span] = [s for s in self.spans if s.name == name]
        return span


@contextlib.contextmanager
def installed(provider: TracerProvider) -> Iterator[TracerProvider]:
    """``provider`` as the process's tracer provider for a while, then flushed and the previous one back:
    OpenTelemetry lets a process set it once, which suits a service and not a test playing several."""
    previous = trace.get_tracer_provider()

    def install(chosen) -> None:
        trace._TRACER_PROVIDER_SET_ONCE = Once()
        trace._TRACER_PROVIDER = None
        if chosen is not trace._PROXY_TRACER_PROVIDER:  # none was set before
            trace.set_tracer_provider(chosen)

    install(provider)
    try:
        yield provider
    finally:
        provider.shutdown()  # exports what the batch still holds
        install(previous)
