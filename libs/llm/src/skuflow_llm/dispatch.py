"""One attempt at getting an answer: the chosen model, or its fallback (seed-002 §4.1, C15).

The fallback answers when the model's breaker refuses the request or the request fails. A provider 429
moves to the fallback as a rate-limit downgrade and is not a breaker failure: the model is not broken.
Both models failing raises the last ``ProviderError``, which the API retry layer retries.
"""

from __future__ import annotations

from collections.abc import Mapping

from skuflow_llm.breaker import CircuitBreakers
from skuflow_llm.errors import FailureKind, LLMCircuitOpenError, ProviderError
from skuflow_llm.guard import SafeRequest
from skuflow_llm.observability import metrics
from skuflow_llm.observability.tracing import observed_request
from skuflow_llm.providers.base import GenerationConfig, LLMClient, RawResponse, as_fallback
from skuflow_llm.providers.registry import ModelRegistry
from skuflow_llm.retry import PageCallAllowance


class ModelDispatcher:
    def __init__(self, registry: ModelRegistry, breakers: CircuitBreakers,
                 configs: Mapping[str, GenerationConfig]) -> None:
        self.registry = registry
        self.breakers = breakers
        self.configs = configs

    async def call(self, model: str, request: SafeRequest, operation: str,
                   allowance: PageCallAllowance) -> RawResponse:
        client = self.registry.get(model)
        fallback = self.registry.get_fallback(model)
        if not await self.breakers[model].allow_request():
            if fallback and await self.breakers[fallback.model_name].allow_request():
                return as_fallback(await self._send(fallback, request, operation, allowance), "api_fallback")
            raise LLMCircuitOpenError("All models unavailable", "CIRCUIT_OPEN", {"model": model})
        try:
            return await self._send(client, request, operation, allowance)
        except ProviderError as exc:
            if not fallback or not await self.breakers[fallback.model_name].allow_request():
                raise
            reason = "rate_limit" if exc.kind is FailureKind.RATE_LIMITED else "api_fallback"
            try:
                return as_fallback(await self._send(fallback, request, operation, allowance), reason)
            except ProviderError:
                metrics.API_CALLS.labels(fallback.model_name, operation, "fallback_failed").inc()
                raise

    async def _send(self, client: LLMClient, request: SafeRequest, operation: str,
                    allowance: PageCallAllowance) -> RawResponse:
        allowance.spend()
        breaker = self.breakers[client.model_name]
        config = self.configs[client.model_name]
        try:
            response = await observed_request(client, operation, config,
                                              lambda: client.call(request.prompt, request.images, config))
        except ProviderError as exc:
            if exc.kind is not FailureKind.RATE_LIMITED:
                await breaker.record_failure()
            raise
        await breaker.record_success()
        return response
