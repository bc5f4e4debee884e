"""The adapter's Prometheus metrics (seed-002 §8), exposed on each service's /metrics.

``llm_state_store_fallback_total{component}`` stands for the seed's ``llm_circuit_redis_fallback_total``:
the shared state is in Postgres here, and the limiter and budget fall back too, not only the breaker.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

API_CALLS = Counter("llm_api_call_total", "Provider requests by outcome", ["model", "operation", "status"])
API_LATENCY = Histogram("llm_api_latency_seconds", "Provider request latency", ["model", "operation"],
                        buckets=(0.5, 1, 2, 5, 10, 30, 60, 120))
TOKENS = Counter("llm_tokens_consumed_total", "Tokens billed (input + output)", ["model", "operation"])
CIRCUIT_STATE = Gauge("llm_circuit_state", "Breaker state: 0 closed, 1 half-open, 2 open", ["model"])
STATE_FALLBACK = Counter("llm_state_store_fallback_total", "Operations served from local state because "
                         "the shared store was unreachable", ["component"])
RATE_LIMITED = Counter("llm_rate_limited_total", "Calls refused by the rate limiter", ["model"])
RATE_DOWNGRADE = Counter("llm_rate_downgrade_total", "Calls moved to the fallback model by rate limits",
                         ["from_model", "to_model"])
BUDGET_DOWNGRADE = Counter("llm_budget_downgrade_total", "Routes moved to the cheaper model by the budget")
COST_USD_DAILY = Gauge("llm_cost_usd_daily", "Spent today (UTC), all merchants, in US dollars")
DAILY_BUDGET_USD = Gauge("llm_daily_budget_usd", "The daily budget of all merchants (SKUFLOW_LLM_DAILY_BUDGET_USD), "
                         "in US dollars: what the spend alert holds llm_cost_usd_daily against")
PARSE_METHOD = Counter("llm_parse_method_total", "Answers parsed, by repair level", ["model", "method"])
PARSE_FAILURES = Counter("llm_parse_failure_total", "Answers no repair level could read", ["model"])
RESPONSE_LENGTH = Histogram("llm_response_length_chars", "Length of the raw answer", ["model"],
                            buckets=(100, 500, 1000, 2000, 5000, 10000))
ROUTES = Counter("llm_route_total", "Routing decisions", ["operation", "page_type", "complexity", "route"])
SEMANTIC_DEGRADE = Counter("llm_semantic_degrade_total", "Routes moved to the standard model after repeated "
                           "validation failures (G1)")
INJECTION_DETECTED = Counter("llm_injection_detected_total", "Suspicious document text, by response tier",
                             ["policy"])
CALL_LIMIT = Counter("llm_call_limit_total", "Calls refused by the per-page call cap (C10)")
TOKEN_ESTIMATION_ERROR = Histogram("llm_token_estimation_error", "Estimated minus actual tokens",
                                   buckets=(-1000, -500, -100, 0, 100, 500, 1000, 5000))
