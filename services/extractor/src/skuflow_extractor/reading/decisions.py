"""Stage 3, the learned decision: how likely each candidate is one of the page's products, read right.

A gradient-boosted tree model (LightGBM) over ``features.FEATURES``, trained by ``skuflow train``
from the labelled pages and committed with this package (``model/``). Its scores are calibrated on
predictions for pages it did not learn from (isotonic), so a probability of 0.9 is right nine times
in ten; the artifact also holds the threshold a candidate is taken at and the page confidence a
page is left unreviewed at, both chosen on those held-out predictions, and the calibration and threshold
of a reader adapted to a person's correction (chosen on held-out corrections: ``AfterCorrection``).
Loaded once per process.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

import lightgbm
import numpy as np

from skuflow_extractor.reading.features import FEATURES

MODEL_DIR = Path(__file__).parent / "model"


class ReaderMismatch(RuntimeError):
    """The artifact was trained on other features than this code computes: train it again."""


@dataclass(frozen=True)
class Calibration:
    """A monotone map from the model's raw score to the probability of being right (isotonic)."""

    scores: tuple[float, ...]
    probabilities: tuple[float, ...]

    def __call__(self, raw: np.ndarray) -> np.ndarray:
        if not self.scores:
            return raw
        return np.interp(raw, self.scores, self.probabilities)


@dataclass(frozen=True)
class ReviewBar:
    """The page confidence under which a page goes to a person, one for text layers and one for OCR
    readings: the reader decides whether a cell is a product, not whether OCR spelled it right, so a
    scan's confident reading is wrong more often and needs its own bar (both chosen held out)."""

    text_layer: float
    ocr: float

    def for_page(self, ocr: bool) -> float:
        return self.ocr if ocr else self.text_layer


@dataclass(frozen=True)
class AfterCorrection:
    """How an adapted reader's scores are read: a person's correction makes the added trees surer of the
    layout they taught than the global calibration says (a candidate scored 0.8–0.9 after a correction was
    right 0.98 of the time), so adapted scores have a calibration, a take and review bars of their own, fit
    by ``skuflow train`` on corrections simulated on pages the reader never learned from: the global bars are
    chosen on readings made without a lesson, and the pages a correction frees must hold SKU precision 0.98
    on readings made with one (``review_below`` None: a reader trained before these bars were)."""

    calibration: Calibration
    take: float
    review_below: ReviewBar | None = None


@dataclass(frozen=True)
class Reader:
    version: str
    booster: lightgbm.Booster
    calibration: Calibration
    take: float  # a candidate at least this likely becomes a SKU
    review_below: ReviewBar  # a page whose confidence is under this goes to a person
    after_correction: AfterCorrection | None = None  # the calibration and take ``adapted`` gives its reader
    repeats_doubt: bool = True  # a taken key printed again lowers the page's confidence (``assembly``)
    taught_share: float | None = None  # products a priced row on the pages corrected (``adaptation.adapted``)

    def probabilities(self, matrix: np.ndarray) -> np.ndarray:
        if len(matrix) == 0:
            return np.zeros(0)
        return self.calibration(self.booster.predict(matrix, num_threads=1))

    def manifest(self) -> dict:
        after = self.after_correction
        corrected = {"take": after.take, "calibration": _points(after.calibration),
                     **({"review_below": asdict(after.review_below)} if after.review_below else {})} if after else None
        return {"version": self.version, "features": list(FEATURES), "take": self.take,
                "review_below": asdict(self.review_below), "calibration": _points(self.calibration),
                **({"after_correction": corrected} if corrected else {})}

    def save(self, directory: Path, trained_on: dict) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "reader.txt").write_text(self.booster.model_to_string(num_iteration=-1), encoding="utf-8")
        body = {**self.manifest(), "trained_on": trained_on}
        (directory / "reader.json").write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n",
                                               encoding="utf-8")


def _points(calibration: Calibration) -> dict:
    return {"scores": list(calibration.scores), "probabilities": list(calibration.probabilities)}


def _calibration(points: dict) -> Calibration:
    return Calibration(tuple(points["scores"]), tuple(points["probabilities"]))


def load_reader(directory: Path) -> Reader:
    manifest = json.loads((directory / "reader.json").read_text(encoding="utf-8"))
    if tuple(manifest["features"]) != FEATURES:
        raise ReaderMismatch(f"{directory}: trained on other features than this code computes; "
                             "run `skuflow train`")
    booster = lightgbm.Booster(model_str=(directory / "reader.txt").read_text(encoding="utf-8"))
    after = manifest.get("after_correction")  # absent from readers trained before it was learned
    return Reader(manifest["version"], booster, _calibration(manifest["calibration"]), manifest["take"],
                  ReviewBar(**manifest["review_below"]),
                  AfterCorrection(_calibration(after["calibration"]), after["take"],
                                  ReviewBar(**after["review_below"]) if "review_below" in after else None)
                  if after else None)


@cache
def committed_reader() -> Reader | None:
    """The reader committed with this package, once per process; None before the first training."""
    return load_reader(MODEL_DIR) if (MODEL_DIR / "reader.json").is_file() else None
