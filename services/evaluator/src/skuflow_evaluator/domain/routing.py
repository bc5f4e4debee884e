"""Routing decision for a document.

The walking skeleton routes every document AUTO; the evaluator issue adds the seed's C_doc
score (Σ w_dim × score_dim − prescan penalty against thresholds A / PV / B) behind this function.
"""

from __future__ import annotations

from dataclasses import dataclass

from skuflow_contracts.results import Route


@dataclass(frozen=True)
class RoutingDecision:
    route: Route
    c_doc: float | None
    reason: str


def decide_route() -> RoutingDecision:
    return RoutingDecision(route="AUTO", c_doc=None, reason="no evaluation dimensions configured yet")
