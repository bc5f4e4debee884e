"""Templates for the seven operations, version choice and A/B buckets, few-shot examples, anchoring."""

from __future__ import annotations

from dataclasses import dataclass, field

import jinja2
import pytest
from llm_pages import Block

from skuflow_llm.clock import ManualClock
from skuflow_llm.context import OPERATIONS
from skuflow_llm.prompts.anchor import DocumentAnchorBuilder
from skuflow_llm.prompts.engine import PromptEngine
from skuflow_llm.prompts.experiments import Experiment, job_bucket
from skuflow_llm.prompts.fewshot import FewShotExample, StaticFewShots
from skuflow_llm.settings import DEFAULT_TEMPLATES_DIR

VARIABLES = {"anchored_text": "<text y='100' x='50'>型号: A-100</text>", "features": {"multi_column": True},
             "image_count": 2, "inputs": {}, "category": "家具"}


@dataclass
class Profile:
    category: str | None = "家具"
    prompt_experiment: dict[str, str] = field(default_factory=dict)


def engine(clock=None, **kwargs) -> PromptEngine:
    return PromptEngine(DEFAULT_TEMPLATES_DIR, clock or ManualClock(), **kwargs)


@pytest.mark.parametrize("operation", OPERATIONS)
async def test_every_operation_renders_with_the_shared_parts(operation):
    prompt = await engine().render(operation, **VARIABLES)
    assert prompt.version == "v1"
    assert "型号/货号 = model number" in prompt.text  # the shared system part
    assert "<document>\n<text y='100' x='50'>型号: A-100</text>\n</document>" in prompt.text  # safety wrapper
    assert "Answer with one JSON object" in prompt.text and '"家具"' in prompt.text
    assert "2 image(s) of the page are attached" in prompt.text


async def test_a_missing_variable_is_an_error_not_an_empty_string():
    with pytest.raises(jinja2.UndefinedError):
        await engine().render("classify_page", features={}, image_count=0, inputs={}, category=None)


async def test_operation_inputs_reach_their_templates():
    candidates = [{"sku_id": "s1", "candidates": [{"image_id": "img-7", "confidence": 0.61}]}]
    binding = await engine().render("resolve_binding", **{**VARIABLES, "inputs": {"candidates": candidates}})
    assert '"image_id": "img-7"' in binding.text
    attributes = {"attributes": ["model", "颜色"]}
    extraction = await engine().render("extract_sku_attrs", **{**VARIABLES, "inputs": attributes})
    assert "Attributes: model, 颜色." in extraction.text


def test_version_priority_bucket_then_profile_then_running_experiment_then_default():
    running = Experiment(name="e", template="classify_page", control_version="v1", experiment_version="v2",
                         traffic_pct=100, status="running")
    prompts = engine(experiments=[running])
    assert prompts.select_version("classify_page", experiment_bucket="v2", job_id="j") == "v2"
    assert prompts.select_version("classify_page", profile=Profile(prompt_experiment={"classify_page": "v1"}),
                                  job_id="j") == "v1"
    assert prompts.select_version("classify_page", job_id="j") == "v2"
    assert prompts.select_version("classify_page") == "v1"
    assert prompts.select_version("classify_text", experiment_bucket="v2") == "v1"  # no v2 of this template
    planned = engine()  # the shipped experiment.yaml is only planned
    assert planned.experiments[0].name == "classify_page_v2"
    assert planned.select_version("classify_page", job_id="j") == "v1"


def test_a_job_keeps_its_bucket_and_traffic_splits_jobs():
    assert job_bucket("job-42") == 6  # SHA-256 based: pinned, the same in every process
    experiment = Experiment(name="e", template="t", control_version="v1", experiment_version="v2", traffic_pct=10)
    versions = [experiment.version_for(f"job-{n}") for n in range(2000)]
    assert 150 <= versions.count("v2") <= 250
    assert all(experiment.version_for(f"job-{n}") == versions[n] for n in range(2000))


def test_an_experiment_runs_only_within_its_dates():
    import datetime as dt

    experiment = Experiment(name="e", template="t", control_version="v1", experiment_version="v2", traffic_pct=10,
                            status="running", start_date=dt.date(2026, 3, 1), end_date=dt.date(2026, 3, 15))
    assert [experiment.runs_on(dt.date(2026, 3, d)) for d in (1, 15, 16)] == [True, True, False]


async def test_few_shot_examples_are_confirmed_good_and_the_best_three():
    examples = [FewShotExample(f"in{q}", {"page_type": "B"}, quality, "家具") for q, quality in
                enumerate((0.84, 0.99, 0.85, 0.9, 0.95))]
    examples.append(FewShotExample("unconfirmed", {}, 1.0, "家具", confirmed=False))
    clock = ManualClock()
    source = StaticFewShots({"classify_page": examples})
    prompts = engine(clock, few_shots=source)
    chosen = await prompts.few_shot_examples("classify_page", "家具")
    assert [e.quality_score for e in chosen] == [0.99, 0.95, 0.9]
    rendered = await prompts.render("classify_page", profile=Profile(), **VARIABLES)
    assert "<input>in1</input>" in rendered.text and "in0" not in rendered.text

    source.by_task["classify_page"] = []
    assert len(await prompts.few_shot_examples("classify_page", "家具")) == 3  # cached for 300 s
    clock.advance(300)
    assert await prompts.few_shot_examples("classify_page", "家具") == []


def test_anchoring_sorts_by_position_caps_and_escapes():
    blocks = [Block("second", x=10, y=200), Block(" <first> ", x=300, y=100), Block("   ", y=150),
              Block("left", x=5, y=200)]
    assert DocumentAnchorBuilder().build(blocks) == (
        "<text y='100' x='300'>&lt;first&gt;</text>\n<text y='200' x='5'>left</text>\n"
        "<text y='200' x='10'>second</text>")
    many = [Block(f"b{n}", y=n) for n in range(60)]
    assert DocumentAnchorBuilder(50).build(many).count("<text") == 50
