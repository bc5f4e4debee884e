"""Builds an ``LLMService`` from settings: the one place that knows every part and how they connect."""

from __future__ import annotations

import random

from skuflow_llm.breaker import BreakerPolicy, CircuitBreakers
from skuflow_llm.budget import TokenBudgetGuard
from skuflow_llm.clock import Clock, Sleep, SystemClock, system_sleep
from skuflow_llm.dispatch import ModelDispatcher
from skuflow_llm.errors import LLMNotConfiguredError, LLMParseError, ProviderError
from skuflow_llm.guard import InputGuard
from skuflow_llm.limiter import GlobalRateLimiter, RateLimit
from skuflow_llm.observability.langfuse import LangfuseSink, NoTraceSink, TraceSink
from skuflow_llm.prompts.anchor import DocumentAnchorBuilder
from skuflow_llm.prompts.engine import PromptEngine
from skuflow_llm.prompts.fewshot import FewShotSource
from skuflow_llm.providers.base import GenerationConfig, LLMClient, Pricing
from skuflow_llm.providers.gemini import GeminiClient
from skuflow_llm.providers.openai_compat import OpenAICompatibleClient
from skuflow_llm.providers.registry import ModelRegistry
from skuflow_llm.recording import RecordingClient, ReplayClient
from skuflow_llm.repair.parser import ResponseParser
from skuflow_llm.retry import RetryPolicy, exponential_delay, linear_delay
from skuflow_llm.routing import PRIMARY, STANDARD, LLMRouter, ModelConfig
from skuflow_llm.service import LLMService
from skuflow_llm.settings import LLMSettings
from skuflow_llm.state import StateStore
from skuflow_llm.state.fallback import FallbackState
from skuflow_llm.state.local import LocalState


def build_clients(settings: LLMSettings) -> list[LLMClient]:
    """The configured providers (an API key each), or replay clients for both models in replay mode."""
    gemini_limits = {"max_images": settings.gemini_max_images, "timeout_sec": settings.gemini_timeout_sec,
                     "pricing": Pricing(settings.pricing_gemini_input, settings.pricing_gemini_output)}
    qwen_limits = {"max_images": settings.qwen_max_images, "timeout_sec": settings.qwen_timeout_sec,
                   "pricing": Pricing(settings.pricing_qwen_input, settings.pricing_qwen_output)}
    if settings.recording_mode == "replay":
        return [ReplayClient(settings.gemini_model, settings.fixtures_dir, **gemini_limits),
                ReplayClient(settings.qwen_model, settings.fixtures_dir, **qwen_limits)]
    clients: list[LLMClient] = []
    if settings.gemini_configured:
        clients.append(GeminiClient(settings.gemini_model, api_key=settings.gemini_api_key.get_secret_value(),
                                    base_url=settings.gemini_base_url, **gemini_limits))
    if settings.qwen_configured:
        clients.append(OpenAICompatibleClient(settings.qwen_model, api_key=settings.qwen_api_key.get_secret_value(),
                                              base_url=settings.qwen_base_url, **qwen_limits))
    if settings.recording_mode == "record":
        clients = [RecordingClient(client, settings.fixtures_dir) for client in clients]
    return clients


def route_configs(settings: LLMSettings, models: list[str]) -> dict[str, ModelConfig]:
    """Both routes; with a single provider configured, both go to it."""
    primary = settings.gemini_model if settings.gemini_model in models else models[0]
    standard = settings.qwen_model if settings.qwen_model in models else models[0]
    return {PRIMARY: ModelConfig(primary, max_tokens=8192, temperature=0.2),
            STANDARD: ModelConfig(standard, max_tokens=4096, temperature=0.1)}


def open_state(settings: LLMSettings) -> StateStore:
    """Postgres shared by replicas (falling back to local state while unreachable; its schema made on first
    use), or this process only."""
    if not settings.state_database_url:
        return LocalState()
    from skuflow_llm.state.postgres import PostgresState

    return FallbackState(PostgresState(settings.state_database_url))


def build_llm_service(settings: LLMSettings | None = None, *, clients: list[LLMClient] | None = None,
                      state: StateStore | None = None, few_shots: FewShotSource | None = None,
                      clock: Clock | None = None, sleep: Sleep | None = None, trace_sink: TraceSink | None = None,
                      rng: random.Random | None = None) -> LLMService:
    settings = settings or LLMSettings()
    clients = clients if clients is not None else build_clients(settings)
    if not clients:
        raise LLMNotConfiguredError("no LLM provider configured (SKUFLOW_LLM_GEMINI_API_KEY / _QWEN_API_KEY)",
                                    "NOT_CONFIGURED")
    clock, sleep, rng = clock or SystemClock(), sleep or system_sleep, rng or random.Random()
    state = state if state is not None else open_state(settings)
    configs = route_configs(settings, [client.model_name for client in clients])
    fallbacks = {settings.gemini_model: settings.qwen_model}
    registry = ModelRegistry(clients, fallbacks)
    # Per model, its route's settings; a single provider serving both routes uses the primary's.
    generation = {config.model: GenerationConfig(config.max_tokens, config.temperature, settings.force_json_output
                                                 and registry.get(config.model).supports_structured_output())
                  for config in (configs[STANDARD], configs[PRIMARY])}
    breakers = CircuitBreakers(state, BreakerPolicy(
        failure_threshold=settings.circuit_failure_threshold,
        recovery_timeout_sec=settings.circuit_recovery_timeout_sec,
        half_open_max_calls=settings.circuit_half_open_max_calls,
        half_open_success_threshold=settings.circuit_half_open_success_threshold,
        half_open_timeout_sec=settings.circuit_half_open_timeout_sec), clock)
    limits = {settings.gemini_model: RateLimit(settings.gemini_qpm, settings.gemini_tpm),
              settings.qwen_model: RateLimit(settings.qwen_qpm, settings.qwen_tpm)}
    if trace_sink is None:
        trace_sink = NoTraceSink() if not settings.langfuse_configured else LangfuseSink.connect(
            settings.langfuse_public_key, settings.langfuse_secret_key.get_secret_value(), settings.langfuse_host)
    return LLMService(
        router=LLMRouter(configs, mode=settings.routing_mode,
                         semantic_failure_threshold=settings.semantic_failure_threshold),
        dispatcher=ModelDispatcher(registry, breakers, generation),
        limiter=GlobalRateLimiter(state, limits, fallbacks, clock, sleep, jitter=rng.uniform),
        budget=TokenBudgetGuard(state, daily_usd=settings.daily_budget_usd,
                                per_merchant_usd=settings.per_merchant_budget_usd, clock=clock),
        prompts=PromptEngine(settings.templates_dir, clock, few_shots=few_shots,
                             default_version=settings.default_prompt_version, few_shot_limit=settings.few_shot_limit,
                             few_shot_min_quality=settings.few_shot_min_quality,
                             few_shot_ttl_sec=settings.few_shot_cache_ttl_sec),
        anchors=DocumentAnchorBuilder(settings.anchor_max_blocks),
        guard=InputGuard(high_risk=settings.injection_high_risk_threshold,
                         medium_risk=settings.injection_medium_risk_threshold),
        parser=ResponseParser(),
        api_retry=RetryPolicy("api_retry", settings.api_retry_max, (ProviderError,),
                              exponential_delay(settings.api_retry_base_delay, settings.api_retry_max_delay, rng=rng),
                              sleep),
        parse_retry=RetryPolicy("parse_retry", settings.parse_retry_max, (LLMParseError,),
                                linear_delay(settings.parse_retry_base_delay), sleep),
        page_call_limit=settings.page_call_limit,
        trace_sink=trace_sink,
        resources=[registry, state],
    )


def optional_llm_service(settings: LLMSettings | None = None) -> LLMService | None:
    """The adapter when a provider (or replay) is configured; None keeps a service purely deterministic,
    so nothing configured means no provider client exists and no call can be made."""
    try:
        return build_llm_service(settings)
    except LLMNotConfiguredError:
        return None
