"""The page's type learned from the labelled pages, over the rules' own measures.

The rules (``classification.classify_page``) were written for the generated golden pages, and on real
catalogs give the labelled type on under half the pages. Boosted trees (LightGBM) over what the rules
measured (their counts in ``detail["features"]``), their type and their confidence, trained by
``skuflow train`` on the labelled pages, give it on three in four held out by batch (docs/decisions.md,
"Page types"). The rules still decide the roles of blocks and pictures; the learned type replaces
theirs, the layout follows the type, and the model's probability is the page type's confidence. What
goes to review is the model's doubt about what is read: whether the page lists products at all (under
``page_type_min_confidence`` the page is reviewed and the LLM assist may be asked); a product page torn
between A, B and C is read the same and is not reviewed for that. The rules' verdict stays in
``detail``. Loaded once per process; without a committed model the rules' reading stands.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import get_args

import lightgbm
import numpy as np

from skuflow_classifier.domain.classification import PageFeatures, classify_page, layout_of
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.profile import ThresholdProfile
from skuflow_contracts.results import PageClassification, PageType

PAGE_TYPES: tuple[PageType, ...] = get_args(PageType)
MEASURES = tuple(f.name for f in fields(PageFeatures))
FEATURES = (*(f"rules_say_{t}" for t in PAGE_TYPES), "rules_confidence", *MEASURES)
MODEL_DIR = Path(__file__).parents[1] / "model"


class PageTypesMismatch(RuntimeError):
    """The artifact was trained on other measures than the rules take: train it again."""


def measures(rules: PageClassification) -> list[float]:
    """The model's input: the rules' type, confidence and counts (a missing measure counts 0)."""
    detail = rules.detail
    return [*(float(detail["rule_page_type"] == t) for t in PAGE_TYPES), float(detail["confidence"]),
            *(float(detail["features"].get(name) or 0.0) for name in MEASURES)]


@dataclass(frozen=True)
class PageTypeModel:
    version: str
    booster: lightgbm.Booster

    @classmethod
    def of(cls, booster: lightgbm.Booster) -> PageTypeModel:
        digest = hashlib.sha256(booster.model_to_string().encode()).hexdigest()[:10]
        return cls(f"page-types-{digest}", booster)

    def probabilities(self, rows: list[list[float]]) -> np.ndarray:
        return self.booster.predict(np.array(rows, dtype=float), num_threads=1).reshape(len(rows), len(PAGE_TYPES))

    def typed(self, rules: PageClassification, min_confidence: float) -> PageClassification:
        """The rules' classification with the learned type, its probability and the layout it implies.

        The review asks whether the page lists products: a page called D is reviewed when D's probability
        is under ``min_confidence``, a product page when the probability that it lists products is. Which
        of A, B and C a product page is does not decide whether its products are read (the reader weighs
        the type among its features and its own doubts flag the page), so that doubt sends no page to a
        person.
        A page called D is read by no one, so where the rules doubted it (a scan read poorly, a table's
        last row run onto a page of its own, products named without codes) it goes to review however
        sure the model is: a silent loss costs more than a look."""
        p = self.probabilities([measures(rules)])[0]
        page_type, confidence = PAGE_TYPES[int(p.argmax())], round(float(p.max()), 4)
        lists_products = 1.0 - float(p[PAGE_TYPES.index("D")])
        sure_what_is_read = 1.0 - lists_products if page_type == "D" else lists_products
        return rules.model_copy(update={
            "page_type": page_type, "page_type_confidence": confidence,
            "layout": layout_of(PageFeatures(**rules.detail["features"]), page_type),
            "needs_review": sure_what_is_read < min_confidence or (page_type == "D" and rules.needs_review),
            "reason": f"learned {page_type} at {confidence:.2f}, listing products at {lists_products:.2f} "
                      f"(rules: {rules.page_type} {rules.reason})",
            "detail": {**rules.detail, "learned": {
                "version": self.version, "probabilities": dict(zip(PAGE_TYPES, (round(float(v), 4) for v in p),
                                                                   strict=True))}}})

    def save(self, directory: Path, trained_on: dict) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "page_types.txt").write_text(self.booster.model_to_string(num_iteration=-1), encoding="utf-8")
        body = {"version": self.version, "features": list(FEATURES), "trained_on": trained_on}
        (directory / "page_types.json").write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")


def load_page_types(directory: Path) -> PageTypeModel:
    manifest = json.loads((directory / "page_types.json").read_text(encoding="utf-8"))
    if tuple(manifest["features"]) != FEATURES:
        raise PageTypesMismatch(f"{directory}: trained on other measures than the rules take; run `skuflow train`")
    booster = lightgbm.Booster(model_str=(directory / "page_types.txt").read_text(encoding="utf-8"))
    return PageTypeModel(manifest["version"], booster)


@cache
def committed_page_types() -> PageTypeModel | None:
    """The model committed with this package, once per process; None before the first training."""
    return load_page_types(MODEL_DIR) if (MODEL_DIR / "page_types.json").is_file() else None


def classify(page: ParsedPage, profile: ThresholdProfile,
             page_types: PageTypeModel | None = None) -> PageClassification:
    """The page classified as the services deliver it: the rules' measures and roles, then the learned
    type (``page_types``, else the committed model, else the rules' own)."""
    rules = classify_page(page, profile)
    model = page_types or committed_page_types()
    return model.typed(rules, profile.classification.page_type_min_confidence) if model else rules
