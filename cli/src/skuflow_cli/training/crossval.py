"""Leave one batch out: for each batch of the real set, a model trained on every other batch and the
golden set reads that batch. These held-out readings are the only figures that say how the reader
reads catalogs it has never seen; the calibration and both thresholds are chosen on them too.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass

import lightgbm
import numpy as np

from skuflow_cli.evaluation.scoring import Tally, score_page
from skuflow_cli.training.corpus import CORRECTIONS, GOLDEN
from skuflow_cli.training.fit import BARE_WEIGHT, GOLDEN_WEIGHT, isotonic, train
from skuflow_cli.training.samples import PageSample
from skuflow_contracts.profile import profile_for
from skuflow_extractor.reading.assembly import assemble
from skuflow_extractor.reading.candidates import TaughtColumn
from skuflow_extractor.reading.decisions import Calibration, ReviewBar
from skuflow_extractor.reading.pipeline import product_photos, review_reasons, rules_page_type

UNFLAGGED_PRECISION = 0.98  # what is not flagged must be right
TAKE_GRID = tuple(round(t, 2) for t in np.arange(0.2, 0.81, 0.05))
TAKE_MIN_PRECISION = 0.80  # a take buying recall below it delivers one wrong SKU in five (issue 39's floor)
RELIABILITY_BINS = 10
SKU_MIN_CONFIDENCE = profile_for("v1").extraction.sku_min_confidence  # the default profile's bar, as served


@dataclass
class HeldOut:
    sample: PageSample
    scores: np.ndarray  # raw scores of a model that never saw the sample's batch
    taught: tuple[TaughtColumn, ...] = ()  # the columns a correction taught the reader that scored it
    taught_share: float | None = None  # the products a priced row that correction showed (``Reader.taught_share``)


def real_batches(samples: list[PageSample]) -> list[str]:
    return sorted({s.batch for s in samples if s.batch not in (GOLDEN, CORRECTIONS)}, key=int)


def stacked(samples: list[PageSample]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, labels and weights of every candidate of ``samples``."""
    matrix = np.concatenate([s.matrix for s in samples]) if samples else np.zeros((0, 0))
    labels = np.concatenate([s.labels for s in samples]) if samples else np.zeros(0)
    weights = np.concatenate([np.full(len(s.labels), (GOLDEN_WEIGHT if s.batch == GOLDEN else 1.0) *
                                      (BARE_WEIGHT if s.bare else 1.0)) for s in samples]) if samples else np.zeros(0)
    return matrix, labels, weights


def without_each_batch(samples: list[PageSample]) -> Iterator[tuple[str, lightgbm.Booster]]:
    """For each real batch, the model trained on every other batch and the golden set."""
    batches = real_batches(samples)
    for n, batch in enumerate(batches, start=1):
        print(f"\r[{n}/{len(batches)}] training without batch {batch}", end="", file=sys.stderr, flush=True)
        yield batch, train(*stacked([s for s in samples if s.batch != batch]))
    print(file=sys.stderr)


def scored(held: list[HeldOut], bare: bool = False) -> list[HeldOut]:
    """The held-out pages as the reader reads them (``bare``: their twins read without the rules)."""
    return [h for h in held if h.sample.bare == bare]


def calibrate(held: list[HeldOut]) -> Calibration:
    scores = np.concatenate([h.scores for h in held]) if held else np.zeros(0)
    labels = np.concatenate([h.sample.labels for h in held]) if held else np.zeros(0)
    return isotonic(scores, labels)


@dataclass(frozen=True)
class Judged:
    """A held-out page as the reader would leave it: its predicted page (scoring format) and confidence."""

    sample: PageSample
    predicted: dict
    confidence: float
    flagged: bool


NO_BAR = ReviewBar(0.0, 0.0)  # judged for the thresholds' choice: nothing flagged for its confidence


def judge(h: HeldOut, calibration: Calibration, take: float, review_below: ReviewBar,
          repeats_doubt: bool = True) -> Judged:
    """The page as the pipeline delivers it: flagged by the reader's doubts and, as the binder flags it,
    by the classifier's own doubt about the page's type (seed-000 §5: under ``page_type_min_confidence``);
    ``repeats_doubt`` as the reader reading it has it (``assembly``)."""
    reading = assemble(h.sample.geo, h.sample.found, calibration(h.scores), take, h.sample.file_hash,
                       repeats_doubt, h.taught)
    classification = h.sample.classification
    flagged = bool(review_reasons(reading, review_below.for_page(h.sample.geo.ocr), h.sample.page_type,
                                  SKU_MIN_CONFIDENCE, scanned=h.sample.geo.ocr,
                                  photos=product_photos(classification) if classification else 0,
                                  rules_type=rules_page_type(classification) if classification else None,
                                  taught_share=h.taught_share, geo=h.sample.geo)) or bool(
        classification and classification.needs_review)
    predicted = {"needs_review": flagged, "page_type": h.sample.page_type,
                 "skus": [s.model_dump(mode="json") for s in reading.skus]}
    return Judged(h.sample, predicted, reading.confidence, flagged)


def tally(judged: list[Judged]) -> Tally:
    total = Tally()
    for j in judged:
        total += score_page(j.sample.truth, j.predicted)
    return total


def rules_tally(samples: list[PageSample]) -> Tally:
    """The rule readers' reading, scored the same way (as flagged: their flag is not the reader's)."""
    total = Tally()
    for s in samples:
        total += score_page(s.truth, {"needs_review": True, "page_type": s.page_type,
                                      "skus": [k.model_dump(mode="json") for k in s.engine]})
    return total


def choose_take(held: list[HeldOut], calibration: Calibration) -> float:
    """The threshold that reads the held-out batches best by the figure that counts: SKU F1, the mean over
    batches weighted by their products (micro F1 moves by a ten-thousandth between neighbouring thresholds
    where the batches' mean does not), among the thresholds whose SKU precision, the same mean, is at least
    ``TAKE_MIN_PRECISION`` (by F1 alone where none is)."""
    figures = {t: sku_weighted_mean([judge(h, calibration, t, NO_BAR) for h in held]) for t in TAKE_GRID}
    precise = [t for t in TAKE_GRID if figures[t]["precision"] >= TAKE_MIN_PRECISION] or list(TAKE_GRID)
    return max(precise, key=lambda t: (figures[t]["f1"], -abs(t - 0.5)))


def sku_weighted_mean(judged: list[Judged]) -> dict[str, float]:
    """Precision, recall and F1 per batch, averaged with each batch weighted by its truth SKUs."""
    figures = [tally(pages).metrics()["sku"] for pages in _grouped(judged, lambda j: j.sample.batch).values()]
    weight = sum(f["truth"] for f in figures) or 1
    return {name: round(sum((f[name] or 0.0) * f["truth"] for f in figures) / weight, 4)
            for name in ("precision", "recall", "f1")}


def _lowest_bar(judged: list[Judged]) -> float:
    """The lowest page confidence at which the pages at or above it still hold SKUs at least
    ``UNFLAGGED_PRECISION`` right. Pages of equal confidence (calibration is a step function) are left
    unflagged together or not at all."""
    by_confidence: dict[float, list[Judged]] = defaultdict(list)
    for j in judged:
        by_confidence[j.confidence].append(j)
    matched = predicted = 0
    best = 1.01
    for confidence in sorted(by_confidence, reverse=True):
        for j in by_confidence[confidence]:
            t = score_page(j.sample.truth, j.predicted)
            matched, predicted = matched + t.sku_matched, predicted + t.sku_predicted
        if predicted and matched / predicted >= UNFLAGGED_PRECISION:
            best = confidence
    return best


def choose_review(held: list[HeldOut], calibration: Calibration, take: float,
                  repeats_doubt: bool = True) -> ReviewBar:
    """The review bars that leave as many pages to no one as the precision goal allows (held out), one
    for text layers and one for OCR readings, each holding the goal on its own pages. A bar decides only
    the pages nothing else flags (an SKU under the profile's bar, a page read to nothing, the classifier's
    doubt), so it is chosen on those: the pages flagged anyway carry the errors a bar chosen over every
    page would also be paid to keep out. ``repeats_doubt`` as the reader reading them has it (``judge``)."""
    decided = [j for j in (judge(h, calibration, take, NO_BAR, repeats_doubt) for h in held) if not j.flagged]
    return ReviewBar(text_layer=_lowest_bar([j for j in decided if not j.sample.geo.ocr]),
                     ocr=_lowest_bar([j for j in decided if j.sample.geo.ocr]))


def unflagged_figures(judged: list[Judged]) -> dict:
    unflagged = [j for j in judged if not j.flagged]
    product_pages = [j for j in judged if j.sample.truth.get("skus")]
    kept = tally(unflagged)
    clean = kept.metrics()["sku"]
    return {"pages": len(unflagged), "sku_precision": clean["precision"], "sku_recall": clean["recall"],
            "product_pages_unflagged_share": round(
                sum(1 for j in product_pages if not j.flagged) / max(len(product_pages), 1), 4),
            "wrong_skus_unflagged": kept.sku_predicted - kept.sku_matched}


def nested_unflagged(held: list[HeldOut], calibration: Calibration, take: float) -> dict:
    """The unflagged pages of each batch under bars chosen without that batch: how the bars hold on
    pages they were not chosen on (the calibration is shared), over all batches and batch by batch
    (a batch whose confident errors no other batch shows is where the bars give way)."""
    judged, by_batch = [], {}
    for batch in real_batches([h.sample for h in held]):
        bar = choose_review([h for h in held if h.sample.batch != batch], calibration, take)
        own = [judge(h, calibration, take, bar) for h in held if h.sample.batch == batch]
        by_batch[batch] = {"review_below": asdict(bar),
                           **unflagged_figures(own)}
        judged += own
    return {**unflagged_figures(judged), "batches": by_batch}


def reliability(held: list[HeldOut], calibration: Calibration) -> dict:
    """How often a candidate given probability p was right, by tenths of p, and the expected
    calibration error (ECE) over candidates."""
    probability = np.concatenate([calibration(h.scores) for h in held]) if held else np.zeros(0)
    labels = np.concatenate([h.sample.labels for h in held]) if held else np.zeros(0)
    rows, ece = [], 0.0
    for b in range(RELIABILITY_BINS):
        low, high = b / RELIABILITY_BINS, (b + 1) / RELIABILITY_BINS
        inside = (probability >= low) & ((probability < high) | (b == RELIABILITY_BINS - 1))
        n = int(inside.sum())
        if n:
            mean_p, right = float(probability[inside].mean()), float(labels[inside].mean())
            ece += n / len(probability) * abs(mean_p - right)
            rows.append({"bin": f"{low:.1f}-{high:.1f}", "candidates": n, "mean_probability": round(mean_p, 3),
                         "right": round(right, 3)})
    return {"bins": rows, "ece": round(ece, 4)}


def _grouped(judged: list[Judged], key: Callable[[Judged], str]) -> dict[str, list[Judged]]:
    groups: dict[str, list[Judged]] = defaultdict(list)
    for j in judged:
        groups[key(j)].append(j)
    return groups


def report(held: list[HeldOut], calibration: Calibration, take: float, review_below: ReviewBar) -> dict:
    """Per batch and overall: the reader's figures on held-out pages, the rules' beside them, what
    the review flag leaves unflagged, and the pages read as if no rule reader had fired."""
    without_rules = tally([judge(h, calibration, take, review_below) for h in scored(held, bare=True)]).metrics()
    held = scored(held)
    judged = [judge(h, calibration, take, review_below) for h in held]
    by_batch = _grouped(judged, lambda j: j.sample.batch)
    batches = {}
    for batch in sorted(by_batch, key=int):
        reader = tally(by_batch[batch]).metrics()
        rules = rules_tally([j.sample for j in by_batch[batch]]).metrics()
        batches[batch] = {"pages": len(by_batch[batch]), "truth_skus": reader["sku"]["truth"],
                          "reader": reader["sku"], "rules": rules["sku"],
                          "price_accuracy": reader["attributes"].get("price", {}).get("accuracy"),
                          "silent_loss": reader["silent_loss"]}
    by_kind = _grouped(judged, lambda j: j.sample.kind)
    kinds = {kind: {"pages": len(pages), **(m := tally(pages).metrics())["sku"], "silent_loss": m["silent_loss"]}
             for kind, pages in sorted(by_kind.items())}
    return {
        "pages": len(judged), "take": take,
        "review_below": asdict(review_below),
        "overall": tally(judged).metrics(), "rules_overall": rules_tally([j.sample for j in judged]).metrics(),
        "sku_weighted_mean": sku_weighted_mean(judged), "batches": batches, "by_source_kind": kinds,
        "unflagged": unflagged_figures(judged),
        "unflagged_bars_chosen_without_the_batch": nested_unflagged(held, calibration, take),
        "calibration": reliability(held, calibration), "without_rules": without_rules["sku"],
    }
