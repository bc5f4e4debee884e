"""Renders an operation's prompt from versioned Jinja2 templates (seed-002 §8).

Version choice, first match wins: the job's ``experiment_bucket``; the profile's ``prompt_experiment``
for this template; a running experiment's bucket for the job id; the default version. A version that
has no file for this template falls back to the default version, so a bucket "v2" set for a whole job
only changes the templates that have a v2. Undefined variables are errors (StrictUndefined).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from skuflow_llm.clock import Clock
from skuflow_llm.context import PromptProfile
from skuflow_llm.prompts.experiments import Experiment, load_experiments
from skuflow_llm.prompts.fewshot import FewShotExample, FewShotSource, NoFewShots, best_examples


@dataclass(frozen=True)
class RenderedPrompt:
    text: str
    version: str


class PromptEngine:
    def __init__(self, templates_dir: Path, clock: Clock, *, few_shots: FewShotSource | None = None,
                 default_version: str = "v1", experiments: list[Experiment] | None = None,
                 few_shot_limit: int = 3, few_shot_min_quality: float = 0.85, few_shot_ttl_sec: float = 300) -> None:
        self._env = jinja2.Environment(loader=jinja2.FileSystemLoader(templates_dir), undefined=jinja2.StrictUndefined,
                                       autoescape=False, keep_trailing_newline=True)
        self._clock = clock
        self._few_shots = few_shots or NoFewShots()
        self.default_version = default_version
        self.experiments = experiments if experiments is not None else load_experiments(
            templates_dir / "experiment.yaml")
        self._few_shot_limit = few_shot_limit
        self._few_shot_min_quality = few_shot_min_quality
        self._few_shot_ttl = few_shot_ttl_sec
        self._few_shot_cache: dict[tuple[str, str | None], tuple[float, list[FewShotExample]]] = {}

    def select_version(self, template: str, *, profile: PromptProfile | None = None,
                       experiment_bucket: str | None = None, job_id: str | None = None) -> str:
        if experiment_bucket:
            return self._existing(experiment_bucket, template)
        if profile is not None and template in (profile.prompt_experiment or {}):
            return self._existing(profile.prompt_experiment[template], template)
        today = dt.datetime.fromtimestamp(self._clock.now(), dt.UTC).date()
        for experiment in self.experiments:
            if job_id and experiment.template == template and experiment.runs_on(today):
                return self._existing(experiment.version_for(job_id), template)
        return self.default_version

    async def render(self, template: str, *, profile: PromptProfile | None = None,
                     experiment_bucket: str | None = None, job_id: str | None = None,
                     **variables: Any) -> RenderedPrompt:
        version = self.select_version(template, profile=profile, experiment_bucket=experiment_bucket, job_id=job_id)
        examples = await self.few_shot_examples(template, profile.category if profile else None)
        text = self._env.get_template(f"{version}/{template}.j2").render(
            few_shot_examples=examples, profile=profile, **variables)
        return RenderedPrompt(text, version)

    async def few_shot_examples(self, template: str, category: str | None) -> list[FewShotExample]:
        now = self._clock.now()
        cached = self._few_shot_cache.get((template, category))
        if cached and cached[0] > now:
            return cached[1]
        found = await self._few_shots.examples(template, category, min_quality=self._few_shot_min_quality,
                                               limit=self._few_shot_limit)
        examples = best_examples(found, min_quality=self._few_shot_min_quality, limit=self._few_shot_limit)
        self._few_shot_cache[template, category] = (now + self._few_shot_ttl, examples)
        return examples

    def _existing(self, version: str, template: str) -> str:
        try:
            self._env.get_template(f"{version}/{template}.j2")
        except jinja2.TemplateNotFound:
            return self.default_version
        return version
