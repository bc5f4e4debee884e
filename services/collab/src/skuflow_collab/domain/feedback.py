"""The feedback loop's daily suggestions (seed-001a §10.6), never applied without a person.

Calibration (03:00, when the last 7 days hold more than 50 annotated tasks): how far the machine's
readings were from the people's — the share of its SKUs kept unchanged (precision) and the share of
the final SKUs it had found (recall) — and which way the routing thresholds should move.
Attribute promotion (02:00): a custom attribute people confirmed 20 times or more is suggested for
the category's required fields (BR-21).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

CALIBRATION_HOUR, PROMOTION_HOUR = 3, 2
CALIBRATION_DAYS, CALIBRATION_MIN = 7, 50
PROMOTION_MIN = 20
TARGET_PRECISION, TARGET_RECALL = 0.9, 0.85
STEP = 0.02


@dataclass(frozen=True)
class Reviewed:
    """One completed task: how many SKUs the machine read, and what the person did to them."""

    machine: int
    edited: int
    deleted: int
    added: int


def calibration(tasks: list[Reviewed]) -> dict | None:
    """The machine's observed precision and recall against the people, and the suggested move of
    the AUTO threshold A and the review threshold PV (None: too few annotations to say)."""
    if len(tasks) <= CALIBRATION_MIN:
        return None
    machine = sum(t.machine for t in tasks)
    kept = sum(t.machine - t.edited - t.deleted for t in tasks)
    final = sum(t.machine - t.deleted + t.added for t in tasks)
    precision = kept / machine if machine else 1.0
    recall = (sum(t.machine - t.deleted for t in tasks) / final) if final else 1.0
    move = STEP if precision < TARGET_PRECISION or recall < TARGET_RECALL else (
        -STEP if precision > TARGET_PRECISION + 0.05 and recall > TARGET_RECALL + 0.05 else 0.0)
    return {"tasks": len(tasks), "precision": round(precision, 4), "recall": round(recall, 4),
            "suggested_threshold_change": {"A": move, "PV": move},
            "why": "raise: the machine is wrong too often to skip people" if move > 0 else
                   "lower: people rarely change what the machine read" if move < 0 else "keep"}


def promotions(confirmed: list[dict[str, str]]) -> list[dict]:
    """Custom attribute names people confirmed at least ``PROMOTION_MIN`` times, most often first."""
    counts = Counter(name.strip().casefold() for attributes in confirmed for name in attributes)
    return [{"attribute": name, "confirmations": n} for name, n in counts.most_common() if n >= PROMOTION_MIN]
