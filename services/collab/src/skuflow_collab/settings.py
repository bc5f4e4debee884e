"""Collab's settings (``SKUFLOW_*``): its clocks and how long a task's lock lasts without a heartbeat."""

from pydantic_settings import BaseSettings, SettingsConfigDict


class CollabSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SKUFLOW_", extra="ignore")

    task_timer_seconds: float = 30.0  # lock expiry and SLA scan
    # A lock lasts this long unless renewed: the workbench renews it every third of it, so a tab that
    # closes without releasing (a crash) frees its task within this plus one timer tick.
    task_lock_seconds: float = 120.0
    # A task an annotator passed on (release) is offered to them again only after this long.
    release_cooldown_seconds: float = 600.0
