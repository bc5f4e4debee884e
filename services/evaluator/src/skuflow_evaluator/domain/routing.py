"""``router.decide`` (seed-001a §7.7, §5.1): C_doc against thresholds A / PV / B.

The seed gives the thresholds and one example; the comparison rules are ours:
- C_doc < B → HUMAN_ALL (the job degrades to people, ``degrade_reason`` says why);
- C_doc ≥ A, page scores not spread wider than the profile allows, and no scored page under PV → AUTO;
- anything else → HYBRID: the machine reads every page, pages under PV go to review after it.
An all-blank document (BR-25) is degraded before it is scored.
"""

from __future__ import annotations

from dataclasses import dataclass

from skuflow_contracts.profile import ClassificationThresholds
from skuflow_contracts.results import Route

ALL_BLANK = "prescan_reject:all_blank"
LOW_CONFIDENCE = "low_confidence"


@dataclass(frozen=True)
class RoutingDecision:
    route: Route
    reason: str
    degrade_reason: str | None = None


def decide(c_doc: float, page_scores: dict[int, float], variance: float, variance_threshold: float,
           thresholds: ClassificationThresholds) -> RoutingDecision:
    a, pv, b = thresholds.a_threshold, thresholds.pv_threshold, thresholds.b_threshold
    head = f"C_doc={c_doc:.2f}, A={a:.2f}, B={b:.2f}"
    if c_doc < b:
        return RoutingDecision("HUMAN_ALL", f"{head} → HUMAN_ALL", LOW_CONFIDENCE)
    low = sorted(page for page, score in page_scores.items() if score < pv)
    doubts = []
    if c_doc < a:
        doubts.append("C_doc < A")
    if variance > variance_threshold:
        doubts.append(f"page scores vary (variance {variance:.3f} > {variance_threshold:g})")
    if low:
        doubts.append(f"{len(low)} page(s) under PV={pv:.2f}: {', '.join(map(str, low[:10]))}")
    if not doubts:
        return RoutingDecision("AUTO", f"{head} → AUTO")
    return RoutingDecision("HYBRID", f"{head} → HYBRID ({'; '.join(doubts)})")


def all_blank() -> RoutingDecision:
    return RoutingDecision("HUMAN_ALL", "every page is blank (BR-25) → HUMAN_ALL", ALL_BLANK)
