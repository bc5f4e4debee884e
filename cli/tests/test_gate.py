"""The quality gate compares a report's overall figures with the committed baseline."""

from skuflow_cli.evaluation.gate import gated_figures, regressions


def report(precision=0.9, recall=0.8, human=0.1, price=0.95, binding_precision=None):
    return {"overall": {
        "sku": {"precision": precision, "recall": recall, "f1": 0.85},
        "page_type_accuracy": 0.9, "layout_accuracy": 0.8,
        "binding": {"precision": binding_precision, "recall": None},
        "human_intervention_rate": human,
        "attributes": {"price": {"accuracy": price}},
    }}


def test_undefined_figures_are_not_gated():
    figures = gated_figures(report())
    assert "binding.precision" not in figures and figures["attributes.price"] == 0.95


def test_worse_figures_are_regressions_in_either_direction():
    baseline = gated_figures(report())
    assert regressions(report(), baseline) == []
    assert regressions(report(precision=0.95, human=0.05), baseline) == []
    found = regressions(report(recall=0.7, human=0.2, price=0.9), baseline)
    assert len(found) == 3
    assert any(line.startswith("sku.recall: 0.7 is below") for line in found)
    assert any(line.startswith("human_intervention_rate: 0.2 is above") for line in found)


def test_a_figure_missing_from_the_report_is_a_regression():
    baseline = {**gated_figures(report()), "binding.precision": 0.9}
    assert regressions(report(), baseline) == ["binding.precision: missing from the report (baseline 0.9)"]
