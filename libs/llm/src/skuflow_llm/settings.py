"""LLM adapter configuration (seed-002 §9), read only from ``SKUFLOW_LLM_*`` environment variables.

API keys are secrets (``SecretStr``): they never appear in ``repr`` or logs. Key rotation (C18) is a
restart-free re-read: ``LLMSettings()`` reads the environment each time it is built.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_TEMPLATES_DIR = Path(__file__).parent / "prompts" / "templates"
DASHSCOPE_COMPATIBLE_URL = "https://dashscope.aliyuncs.com/compatible-mode/v1"


class LLMSettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="SKUFLOW_LLM_", extra="ignore",
        json_schema_extra={"sensitive_fields": ["gemini_api_key", "qwen_api_key", "langfuse_secret_key"]})

    # Primary model: Gemini through google-genai. ``gemini_base_url`` points it at another endpoint.
    gemini_api_key: SecretStr = SecretStr("")
    gemini_model: str = "gemini-2.5-pro"
    gemini_base_url: str | None = None
    gemini_timeout_sec: float = 120
    gemini_max_images: int = 16
    # Standard model: any OpenAI-compatible chat.completions endpoint (DashScope, vLLM, Ollama).
    qwen_api_key: SecretStr = SecretStr("")
    qwen_model: str = "qwen-vl-max"
    qwen_base_url: str = DASHSCOPE_COMPATIBLE_URL
    qwen_timeout_sec: float = 90
    qwen_max_images: int = 8

    circuit_failure_threshold: int = 5
    circuit_recovery_timeout_sec: float = 60
    circuit_half_open_max_calls: int = 3
    circuit_half_open_success_threshold: int = 2
    circuit_half_open_timeout_sec: float = 30

    gemini_qpm: int = 60
    gemini_tpm: int = 2_000_000
    qwen_qpm: int = 100
    qwen_tpm: int = 5_000_000

    daily_budget_usd: float = 500.0
    per_merchant_budget_usd: float = 50.0

    templates_dir: Path = DEFAULT_TEMPLATES_DIR
    default_prompt_version: str = "v1"
    few_shot_cache_ttl_sec: float = 300
    few_shot_limit: int = 3
    few_shot_min_quality: float = 0.85

    api_retry_max: int = 2
    api_retry_base_delay: float = 1.0
    api_retry_max_delay: float = 15.0
    parse_retry_max: int = 3
    parse_retry_base_delay: float = 0.5

    page_call_limit: int = 6
    semantic_failure_threshold: int = 5
    injection_high_risk_threshold: float = 0.9
    injection_medium_risk_threshold: float = 0.7

    # "table": seed-002 §5 routing; "primary": every LLM call goes to the primary model.
    routing_mode: Literal["table", "primary"] = "table"

    # Breaker, rate-limit and budget state shared by replicas; unset = this process only.
    state_database_url: str | None = None

    # Record/replay of provider calls (seed-001b §3.3): "replay" serves fixtures, no network.
    recording_mode: Literal["off", "record", "replay"] = "off"
    fixtures_dir: Path = Path(".run/llm-fixtures")

    langfuse_enabled: bool = True
    langfuse_public_key: str = ""
    langfuse_secret_key: SecretStr = SecretStr("")
    langfuse_host: str = "http://localhost:3100"

    anchor_max_blocks: int = 50
    force_json_output: bool = True

    pricing_gemini_input: float = 1.25
    pricing_gemini_output: float = 10.0
    pricing_qwen_input: float = 0.80
    pricing_qwen_output: float = 4.0

    @property
    def gemini_configured(self) -> bool:
        return bool(self.gemini_api_key.get_secret_value())

    @property
    def qwen_configured(self) -> bool:
        return bool(self.qwen_api_key.get_secret_value())

    @property
    def langfuse_configured(self) -> bool:
        return self.langfuse_enabled and bool(self.langfuse_public_key and self.langfuse_secret_key.get_secret_value())
