"""Service configuration, read only from ``SKUFLOW_*`` environment variables."""

from __future__ import annotations

from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

DEVELOPMENT = "development"
DEVELOPMENT_JWT_SECRET = "dev-only-secret-change-me-before-deploying"
PLACEHOLDER_MARKS = ("replace_me", "change-me", "changeme", "dev-only", "not-a-secret")
MIN_SECRET_LENGTH = 32


class InsecureConfiguration(SystemExit):
    """Raised at start-up: a deployment must not run with a secret anyone can read in our repo."""


class PlatformSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SKUFLOW_", extra="ignore")

    kafka_bootstrap: str = "127.0.0.1:9092"
    database_url: str = "postgresql+psycopg://skuflow:skuflow@127.0.0.1:5432/skuflow"
    storage_root: Path = Path(".run/storage")
    http_host: str = "127.0.0.1"
    http_port: int | None = None
    log_level: str = "INFO"
    env: str = DEVELOPMENT  # SKUFLOW_ENV; anything else is a deployment with real secrets
    jwt_secret: str = DEVELOPMENT_JWT_SECRET
    handler_retries: int = 3
    retry_backoff_seconds: float = 0.2
    # the relay is woken by every commit that wrote events; polling only finds rows a crashed replica left,
    # and each poll is a transaction: at 0.5 s the eight idle services spent ~4% of a core on them
    outbox_poll_seconds: float = 5.0
    metrics_interval_seconds: float = 15.0  # how often consumer lag and other polled gauges are read
    # how long a starting service waits out a Postgres or Kafka outage before it gives up and exits
    startup_patience_seconds: float = 300.0
    config_version: str = "v1"
    # Browser origins allowed to call this service's API (the annotator workbench, served by collab,
    # logs in at the gateway); comma-separated, empty for none.
    cors_origins: str = "http://127.0.0.1:8006,http://localhost:8006"


def refuse_unsafe_secrets(settings: PlatformSettings) -> None:
    """Outside development, a default, placeholder or short SKUFLOW_JWT_SECRET stops the service."""
    if settings.env == DEVELOPMENT:
        return
    secret = settings.jwt_secret
    if any(mark in secret.lower() for mark in PLACEHOLDER_MARKS) or len(secret) < MIN_SECRET_LENGTH:
        raise InsecureConfiguration(
            f"refusing to start with SKUFLOW_ENV={settings.env!r}: SKUFLOW_JWT_SECRET is the development "
            f"default, a placeholder or shorter than {MIN_SECRET_LENGTH} characters; set it to a long random "
            "value (e.g. `openssl rand -hex 32`) in the skuflow-secrets Secret or the compose environment")
