"""The LLM paths scored offline from committed fixtures (``skuflow eval --llm replay``): deterministic,
no network, and a model that reads a page right lifts the page's score; an answer that was never
recorded leaves the deterministic reading (with a review reason), never a failed page."""

from pathlib import Path

from skuflow_cli.evaluation.runner import evaluate, run_in_process
from skuflow_llm import LLMSettings

HERE = Path(__file__).parent
SET, FIXTURES = HERE / "set", HERE / "fixtures"


def replaying(fixtures: Path):
    settings = LLMSettings(recording_mode="replay", fixtures_dir=fixtures, langfuse_enabled=False,
                           state_database_url=None)
    return lambda documents: run_in_process(documents, settings)


def sku_f1(report: dict) -> float:
    return report["overall"]["sku"]["f1"]


def test_replayed_answers_score_the_same_every_time_and_above_the_rules_alone():
    rules = evaluate(SET, run_in_process, "in-process")
    first, second = (evaluate(SET, replaying(FIXTURES), "in-process") for _ in range(2))
    assert first["overall"] == second["overall"]
    assert sku_f1(first) > sku_f1(rules) and sku_f1(first) == 1.0
    assert first["route_accuracy"] == 1.0


def test_without_recorded_answers_the_rules_reading_stands(tmp_path):
    rules = evaluate(SET, run_in_process, "in-process")
    unrecorded = evaluate(SET, replaying(tmp_path), "in-process")
    assert sku_f1(unrecorded) == sku_f1(rules) and not unrecorded["errors"]
    assert unrecorded["overall"]["human_intervention_rate"] >= rules["overall"]["human_intervention_rate"]
