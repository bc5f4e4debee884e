"""Every SLA step a waiting task takes is a breach; the one that hands it to a team lead is an escalation."""

from prometheus_client import REGISTRY

from skuflow_collab.metrics import count_sla_step


def sample(name: str, labels: dict) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_sla_steps_count_as_breaches_and_the_timeout_as_an_escalation():
    breaches = {step: sample("skuflow_review_sla_breaches_total", {"step": step})
                for step in ("sla_boost", "sla_timeout")}
    escalated = sample("human_task_escalated_total", {"task_type": "SKU_REVIEW"})

    count_sla_step("SKU_REVIEW", "sla_boost")
    count_sla_step("SKU_REVIEW", "sla_timeout")

    assert sample("skuflow_review_sla_breaches_total", {"step": "sla_boost"}) == breaches["sla_boost"] + 1
    assert sample("skuflow_review_sla_breaches_total", {"step": "sla_timeout"}) == breaches["sla_timeout"] + 1
    assert sample("human_task_escalated_total", {"task_type": "SKU_REVIEW"}) == escalated + 1
