"""Stage 3, the learned decision: how likely each candidate is one of the page's products, read right.

A gradient-boosted tree model (LightGBM) over ``features.FEATURES``, trained by ``skuflow train``
from the labelled pages and committed with this package (``model/``). Its scores are calibrated on
predictions for pages it did not learn from (isotonic), so a probability of 0.9 is right nine times
in ten; the artifact also holds the threshold a candidate is taken at and the page confidence a
page is left unreviewed at, both chosen on those held-out predictions. Loaded once per process.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
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
class Reader:
    version: str
    booster: lightgbm.Booster
    calibration: Calibration
    take: float  # a candidate at least this likely becomes a SKU
    review_below: ReviewBar  # a page whose confidence is under this goes to a person

    def probabilities(self, matrix: np.ndarray) -> np.ndarray:
        if len(matrix) == 0:
            return np.zeros(0)
        return self.calibration(self.booster.predict(matrix, num_threads=1))

    def manifest(self) -> dict:
        return {"version": self.version, "features": list(FEATURES), "take": self.take,
                "review_below": {"text_layer": self.review_below.text_layer, "ocr": self.review_below.ocr},
                "calibration": {"scores": list(self.calibration.scores),
                                "probabilities": list(self.calibration.probabilities)}}

    def save(self, directory: Path, trained_on: dict) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "reader.txt").write_text(self.booster.model_to_string(num_iteration=-1), encoding="utf-8")
        body = {**self.manifest(), "trained_on": trained_on}
        (directory / "reader.json").write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n",
                                               encoding="utf-8")


def load_reader(directory: Path) -> Reader:
    manifest = json.loads((directory / "reader.json").read_text(encoding="utf-8"))
    if tuple(manifest["features"]) != FEATURES:
        raise ReaderMismatch(f"{directory}: trained on other features than this code computes; "
                             "run `skuflow train`")
    booster = lightgbm.Booster(model_str=(directory / "reader.txt").read_text(encoding="utf-8"))
    calibration = manifest["calibration"]
    return Reader(manifest["version"], booster, Calibration(tuple(calibration["scores"]),
                                                            tuple(calibration["probabilities"])),
                  manifest["take"], ReviewBar(**manifest["review_below"]))


@cache
def committed_reader() -> Reader | None:
    """The reader committed with this package, once per process; None before the first training."""
    return load_reader(MODEL_DIR) if (MODEL_DIR / "reader.json").is_file() else None
