"""Optional Langfuse traces (seed-002 §5.10): redacted prompt and answer, usage, latency and call metadata.

Langfuse being down or slow never affects a call: failures are logged as a warning and dropped.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from skuflow_llm.observability.redaction import redact
from skuflow_llm.providers.base import RawResponse

log = logging.getLogger(__name__)


class TraceSink(Protocol):
    def record(self, operation: str, prompt: str, response: RawResponse, metadata: dict[str, Any]) -> None: ...


class NoTraceSink:
    def record(self, operation: str, prompt: str, response: RawResponse, metadata: dict[str, Any]) -> None:
        """Langfuse is not configured."""


class LangfuseSink:
    """Writes through any client with Langfuse's ``trace(...).generation(...)`` API."""

    def __init__(self, client: Any) -> None:
        self._client = client

    @classmethod
    def connect(cls, public_key: str, secret_key: str, host: str) -> TraceSink:
        try:
            from langfuse import Langfuse
        except ImportError:
            log.warning("langfuse_not_installed", extra={"fields": {"hint": "pip install skuflow-llm[langfuse]"}})
            return NoTraceSink()
        return cls(Langfuse(public_key=public_key, secret_key=secret_key, host=host))

    def record(self, operation: str, prompt: str, response: RawResponse, metadata: dict[str, Any]) -> None:
        try:
            trace = self._client.trace(name=f"llm_{operation}", metadata=metadata)
            trace.generation(name=operation, model=response.model, input=redact(prompt), output=redact(response.text),
                             usage={"input": response.tokens.input, "output": response.tokens.output,
                                    "total": response.tokens.total},
                             metadata={"latency_sec": response.latency_sec, "cost_usd": response.cost_usd})
        except Exception as exc:
            log.warning("langfuse_trace_failed", extra={"fields": {"error": redact(str(exc), 200)}})
