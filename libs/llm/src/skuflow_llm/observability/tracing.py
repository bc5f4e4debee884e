"""OpenTelemetry spans following the GenAI semantic conventions: one per adapter call, one per provider request.

Prompts and answers stay out of spans (the conventions make content capture opt-in); they go, redacted,
to Langfuse when it is configured.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Iterator

from opentelemetry import trace
from opentelemetry.trace import Span, SpanKind, Status, StatusCode

from skuflow_llm.context import LLMCallContext
from skuflow_llm.errors import LLMError, ProviderError
from skuflow_llm.observability import metrics
from skuflow_llm.providers.base import GenerationConfig, LLMClient, RawResponse

tracer = trace.get_tracer("skuflow.llm")


@contextlib.contextmanager
def operation_span(ctx: LLMCallContext) -> Iterator[Span]:
    """The span of one adapter call; errors are recorded with the adapter's error code."""
    attributes = {"skuflow.llm.operation": ctx.operation, "skuflow.page.type": ctx.page_type or "",
                  "skuflow.job_id": ctx.job_id or "", "skuflow.merchant_id": ctx.merchant_id or ""}
    with tracer.start_as_current_span(f"llm {ctx.operation}", attributes=attributes,
                                      record_exception=False, set_status_on_exception=False) as span:
        try:
            yield span
        except LLMError as exc:
            span.set_attributes({"error.type": exc.code})
            span.set_status(Status(StatusCode.ERROR, exc.message))
            raise


async def observed_request(client: LLMClient, operation: str, config: GenerationConfig,
                           send: Callable[[], Awaitable[RawResponse]]) -> RawResponse:
    """Run one provider request inside its span, counting it in the call, latency and token metrics."""
    model = client.model_name
    attributes = {"gen_ai.operation.name": "chat", "gen_ai.system": client.provider,
                  "gen_ai.provider.name": client.provider, "gen_ai.request.model": model,
                  "gen_ai.request.max_tokens": config.max_tokens, "gen_ai.request.temperature": config.temperature,
                  "skuflow.llm.operation": operation}
    with tracer.start_as_current_span(f"chat {model}", kind=SpanKind.CLIENT, attributes=attributes,
                                      record_exception=False, set_status_on_exception=False) as span:
        try:
            response = await send()
        except ProviderError as exc:
            metrics.API_CALLS.labels(model, operation, exc.kind.value).inc()
            span.set_attributes({"error.type": exc.kind.value})
            span.set_status(Status(StatusCode.ERROR, exc.message))
            raise
        span.set_attributes({"gen_ai.response.model": response.model,
                             "gen_ai.usage.input_tokens": response.tokens.input,
                             "gen_ai.usage.output_tokens": response.tokens.output,
                             "skuflow.llm.images_used": response.images_used,
                             "skuflow.llm.images_truncated": response.images_truncated})
    metrics.API_CALLS.labels(model, operation, "success").inc()
    metrics.API_LATENCY.labels(model, operation).observe(response.latency_sec)
    metrics.TOKENS.labels(model, operation).inc(response.tokens.total)
    return response
