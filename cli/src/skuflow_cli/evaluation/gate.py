"""The quality gate: the committed golden set must score at least as well as ``baseline.json``.

A baseline holds the overall figures of the last accepted report. Raising it is part of any change
that improves quality (``skuflow eval tests/golden --out r.json --update-baseline``).
"""

from __future__ import annotations

LOWER_IS_BETTER = {"human_intervention_rate", "silent_loss.rate"}
TOLERANCE = 1e-4  # rounding of the reported ratios


def gated_figures(report: dict) -> dict[str, float]:
    """The overall figures a change must not make worse, flattened to dotted names."""
    overall = report["overall"]
    figures = {
        "sku.precision": overall["sku"]["precision"], "sku.recall": overall["sku"]["recall"],
        "sku.f1": overall["sku"]["f1"], "page_type_accuracy": overall["page_type_accuracy"],
        "layout_accuracy": overall["layout_accuracy"], "binding.precision": overall["binding"]["precision"],
        "binding.recall": overall["binding"]["recall"],
        "human_intervention_rate": overall["human_intervention_rate"],
        "silent_loss.rate": overall.get("silent_loss", {}).get("rate"),
        "route_accuracy": report.get("route_accuracy"),
        **{f"attributes.{name}": a["accuracy"] for name, a in overall["attributes"].items()},
    }
    return {name: value for name, value in figures.items() if value is not None}


def regressions(report: dict, baseline: dict[str, float]) -> list[str]:
    current = gated_figures(report)
    found = []
    for name, expected in sorted(baseline.items()):
        got = current.get(name)
        if got is None:
            found.append(f"{name}: missing from the report (baseline {expected})")
        elif name in LOWER_IS_BETTER and got > expected + TOLERANCE:
            found.append(f"{name}: {got} is above the baseline {expected}")
        elif name not in LOWER_IS_BETTER and got < expected - TOLERANCE:
            found.append(f"{name}: {got} is below the baseline {expected}")
    return found
