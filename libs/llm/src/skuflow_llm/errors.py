"""The adapter's failures, each with a stable ``code`` the callers branch on (seed-002 §7)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class LLMError(Exception):
    def __init__(self, message: str, code: str, context: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.context = context or {}


class LLMCallLimitError(LLMError):
    """The page has used its LLM calls (C10); the caller hands the page to a human."""


class LLMCircuitOpenError(LLMError):
    """Every model that could answer has its breaker open; the caller degrades to a human."""


class LLMUnavailableError(LLMError):
    """Primary and fallback failed (LLM_CALL_FAILED) or every model is rate limited (RATE_LIMITED)."""


class LLMParseError(LLMError):
    """No repair level produced a valid answer; retried by the parse-retry layer."""


class LLMNotConfiguredError(LLMError):
    """No provider has an API key: the pipeline runs its deterministic engines instead."""


class FixtureMissingError(LLMError):
    """Replay mode found no recorded response for a request (never retried: it would not change)."""


class FailureKind(StrEnum):
    TIMEOUT = "timeout"
    ERROR = "error"
    RATE_LIMITED = "rate_limited"


class ProviderError(LLMError):
    """One provider request failed in a way another attempt may not (timeouts, 5xx, 429, transport)."""

    def __init__(self, message: str, kind: FailureKind, model: str, status: int | None = None) -> None:
        super().__init__(message, f"PROVIDER_{kind.value.upper()}", {"model": model, "status": status})
        self.kind = kind
        self.model = model
        self.status = status


class StateStoreUnavailable(Exception):
    """The shared state database cannot be reached; components fall back to process-local state."""
