"""Service configuration, read only from ``SKUFLOW_*`` environment variables."""

from __future__ import annotations

from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict


class PlatformSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SKUFLOW_", extra="ignore")

    kafka_bootstrap: str = "127.0.0.1:9092"
    database_url: str = "postgresql+psycopg://skuflow:skuflow@127.0.0.1:5432/skuflow"
    storage_root: Path = Path(".run/storage")
    http_host: str = "127.0.0.1"
    http_port: int | None = None
    log_level: str = "INFO"
    jwt_secret: str = "dev-only-secret-change-me-before-deploying"
    handler_retries: int = 3
    retry_backoff_seconds: float = 0.2
    outbox_poll_seconds: float = 0.5
    config_version: str = "v1"
