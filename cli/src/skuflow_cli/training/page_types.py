"""Learning the page type before the reader: the model the classifier serves, and for every labelled
page the type a model that never saw its batch gives it.

The reader and the rule readers take the page type as an input, so the reader must learn from the
types it will be given on a catalog it has never seen: each real batch's pages are typed by the model
trained without that batch (the golden and corrected pages, always trained on, by the full model).
LightGBM, as for the reader: a few hundred pages, two dozen heterogeneous counts, deterministic on one
thread.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import lightgbm
import numpy as np

from skuflow_classifier.domain.classification import classify_page
from skuflow_classifier.domain.page_types import PAGE_TYPES, PageTypeModel, measures
from skuflow_cli.training.corpus import CORRECTIONS, GOLDEN, Document, PageCache
from skuflow_cli.training.fit import GOLDEN_WEIGHT
from skuflow_contracts.profile import ThresholdProfile
from skuflow_contracts.results import PageClassification

PAGE_TYPE_PARAMS = {"objective": "multiclass", "num_class": len(PAGE_TYPES), "learning_rate": 0.05, "num_leaves": 7,
                    "min_data_in_leaf": 10, "feature_fraction": 0.8, "deterministic": True, "force_row_wise": True,
                    "num_threads": 1, "seed": 20261201, "verbose": -1}
PAGE_TYPE_ROUNDS = 200


@dataclass(frozen=True)
class RuleReading:
    """A labelled page as the rules classified it, with the type its truth gives."""

    batch: str
    rules: PageClassification
    truth: str


@dataclass(frozen=True)
class PageTypes:
    served: PageTypeModel  # trained on every labelled page: the classifier's
    without: dict[str, PageTypeModel]  # per real batch, trained without it
    report: dict  # held-out: how often the learned type and the rules' are the labelled one

    def for_batch(self, batch: str) -> PageTypeModel:
        """The model whose type a page of ``batch`` is read with in training."""
        return self.without.get(batch, self.served)


def rule_readings(documents: Iterable[Document], cache: PageCache, profile: ThresholdProfile) -> list[RuleReading]:
    readings = []
    for document in documents:
        truths = {p["page"]: p.get("page_type") for p in document.scored_pages}
        readings += [RuleReading(document.batch, classify_page(page, profile), truths[page.page])
                     for page in cache.pages(document.pdf) if truths.get(page.page) in PAGE_TYPES]
    return readings


def fit(readings: list[RuleReading]) -> PageTypeModel:
    data = lightgbm.Dataset(np.array([measures(r.rules) for r in readings], dtype=float),
                            label=[PAGE_TYPES.index(r.truth) for r in readings],
                            weight=[GOLDEN_WEIGHT if r.batch == GOLDEN else 1.0 for r in readings],
                            params={"verbose": -1})
    return PageTypeModel.of(lightgbm.train(PAGE_TYPE_PARAMS, data, num_boost_round=PAGE_TYPE_ROUNDS))


def learn_page_types(readings: list[RuleReading], min_confidence: float) -> PageTypes:
    """The served model, one without each real batch, and how the held-out types compare with the rules'."""
    batches = sorted({r.batch for r in readings} - {GOLDEN, CORRECTIONS}, key=int)
    without = {batch: fit([r for r in readings if r.batch != batch]) for batch in batches}
    held = [(r, without[r.batch].typed(r.rules, min_confidence)) for r in readings if r.batch in without]
    sure = [(r, typed) for r, typed in held if typed.page_type_confidence >= min_confidence]  # of the type itself
    product = [(r, typed) for r, typed in held if r.truth != "D"]

    def share(pairs: list, right) -> float | None:
        return round(sum(1 for pair in pairs if right(*pair)) / len(pairs), 4) if pairs else None

    report = {"pages": len(held), "learned_right": share(held, lambda r, t: t.page_type == r.truth),
              "rules_right": share(held, lambda r, t: r.rules.page_type == r.truth),
              "learned_sure": round(len(sure) / len(held), 4) if held else None,
              "learned_right_when_sure": share(sure, lambda r, t: t.page_type == r.truth),
              "product_pages_called_D": {"learned": share(product, lambda r, t: t.page_type == "D"),
                                         "rules": share(product, lambda r, t: r.rules.page_type == "D")}}
    return PageTypes(fit(readings), without, report)
