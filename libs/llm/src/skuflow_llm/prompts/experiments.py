"""Prompt A/B experiments with job-level buckets (C16): every page of a job sees the same version.

The bucket comes from a stable hash of the job id (SHA-256, not Python's per-process ``hash``), so every
replica and every restart puts a job in the same bucket.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import yaml
from pydantic import BaseModel


class Experiment(BaseModel):
    name: str
    template: str
    control_version: str
    experiment_version: str
    traffic_pct: int
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    evaluation_metric: str | None = None
    status: str = "planned"
    winner: str | None = None

    def runs_on(self, day: dt.date) -> bool:
        return (self.status == "running" and (self.start_date is None or self.start_date <= day)
                and (self.end_date is None or day <= self.end_date))

    def version_for(self, job_id: str) -> str:
        return self.experiment_version if job_bucket(job_id) < self.traffic_pct else self.control_version


def job_bucket(job_id: str) -> int:
    """0-99, the same for a job id everywhere."""
    return int.from_bytes(hashlib.sha256(job_id.encode()).digest()[:8], "big") % 100


def load_experiments(path: Path) -> list[Experiment]:
    if not path.is_file():
        return []
    document = yaml.safe_load(path.read_text()) or {}
    return [Experiment.model_validate(entry) for entry in document.get("experiments", [])]
