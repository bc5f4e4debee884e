"""SLA levels against an injected clock, and smart dispatch scoring (seed-001a §10.4, §7.28)."""

import pytest

from skuflow_collab.domain.dispatch import Profile, assign, profile_of, score
from skuflow_collab.domain.sla import Step, sla_step


@pytest.mark.parametrize("level, minutes, confidence, expected", [
    ("NORMAL", 14.9, 0.9, None), ("NORMAL", 15, 0.9, Step("sla_boost", "HIGH")),
    ("HIGH", 29.9, 0.9, None), ("HIGH", 30, 0.9, Step("sla_timeout", "CRITICAL")),
    ("CRITICAL", 119, 0.9, None), ("CRITICAL", 120, 0.61, Step("sla_auto_complete", "CRITICAL")),
    ("CRITICAL", 120, 0.6, Step("sla_boost", "AUTO_RESOLVE")),
    ("AUTO_RESOLVE", 179, 0.1, None), ("AUTO_RESOLVE", 180, 0.1, Step("sla_auto_resolve", "AUTO_RESOLVE")),
])
def test_each_sla_level_acts_at_its_time(level, minutes, confidence, expected):
    assert sla_step(level, minutes, confidence) == expected


def test_a_cold_annotator_gets_the_seeds_defaults():
    assert profile_of("new", 0, 0, 0.0, 2) == Profile("new", 0, 0.8, 300.0, 2)
    assert profile_of("old", 10, 1, 1200.0, 0) == Profile("old", 10, 0.9, 120.0, 0)


def test_score_weighs_accuracy_and_load():
    assert score(Profile("a", accuracy=0.9, open_tasks=0)) == 0.94
    assert score(Profile("a", accuracy=0.9, open_tasks=5)) == 0.74
    assert score(Profile("a", accuracy=0.9, open_tasks=50)) == 0.54


def test_hard_tasks_go_only_to_accurate_annotators():
    careful, quick = Profile("careful", accuracy=0.9, open_tasks=8), Profile("quick", accuracy=0.8)
    assert assign(0.3, [careful, quick]) == "careful"
    assert assign(0.7, [careful, quick]) == "quick"  # 0.48+0.4 > 0.54+0.08
    assert assign(0.3, [quick]) is None
