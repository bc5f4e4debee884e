"""Training the reader: gradient-boosted trees on the candidates' features, calibrated on predictions
for pages the model did not learn from, and the two thresholds chosen on those same predictions.

LightGBM, because the decisions are made over a few dozen heterogeneous measures (shapes, counts,
shares, votes) whose interactions matter more than any one of them, with a few thousand labelled
candidates: boosted trees learn such tables well from little data, need no scaling, run in well
under a millisecond a page on one core and train in seconds, so every batch can be held out in turn.
Deterministic: one thread, fixed seeds, row-wise histograms.

Several models, each bagging its own draw of the candidates, averaged into one (``SEEDS``): with a
single draw a few changed pages moved the held-out reading of 120 of 276 documents (forty-third
session), which is the draw's luck, not what the pages teach.
"""

from __future__ import annotations

import hashlib
import re

import lightgbm
import numpy as np

from skuflow_extractor.reading.decisions import AfterCorrection, Calibration, ReviewBar

PARAMS = {"objective": "binary", "learning_rate": 0.05, "num_leaves": 15, "min_data_in_leaf": 10,
          "feature_fraction": 0.8, "bagging_fraction": 0.8, "bagging_freq": 1, "lambda_l2": 1.0,
          "deterministic": True, "force_row_wise": True, "num_threads": 1, "seed": 20261129, "verbose": -1}
ROUNDS = 300
GOLDEN_WEIGHT = 0.3  # the generated golden pages are many and alike: they teach less than a real page
BARE_WEIGHT = 0.1  # a page's twin read without the rules: it teaches the cells alone without drowning the rules
CALIBRATION_POINTS = 64
SEEDS = 5  # models averaged, each with its own seed for bagging and feature sampling


def train(matrix: np.ndarray, labels: np.ndarray, weights: np.ndarray) -> lightgbm.Booster:
    def one(seed: int) -> lightgbm.Booster:
        data = lightgbm.Dataset(matrix, label=labels, weight=weights, free_raw_data=False,
                                params={"verbose": -1})
        return lightgbm.train({**PARAMS, "seed": seed}, data, num_boost_round=ROUNDS)
    return averaged([one(PARAMS["seed"] + k) for k in range(SEEDS)])


def averaged(boosters: list[lightgbm.Booster]) -> lightgbm.Booster:
    """One model whose raw score is the mean of the boosters': their trees in turn, every leaf divided
    by their number. One model, so the extractor loads, saves and adapts it as it would any."""
    if len(boosters) == 1:
        return boosters[0]
    texts = [b.model_to_string(num_iteration=-1) for b in boosters]
    head = texts[0].split("\nTree=0\n", 1)[0]
    head = "\n".join(line for line in head.split("\n") if not line.startswith("tree_sizes="))
    tail = texts[0].split("\nend of trees", 1)[1]
    trees = [block.split("\n", 1)[1] for text in texts
             for block in text.split("\nend of trees", 1)[0].split("\nTree=")[1:]]

    def shrunk(match: re.Match) -> str:
        return "leaf_value=" + " ".join(repr(float(v) / len(boosters)) for v in match.group(1).split())
    body = "".join(f"\nTree={n}\n" + re.sub(r"^leaf_value=(.*)$", shrunk, tree, count=1, flags=re.M)
                   for n, tree in enumerate(trees))
    return lightgbm.Booster(model_str=f"{head}{body}\nend of trees{tail}")


def raw_scores(booster: lightgbm.Booster, matrix: np.ndarray) -> np.ndarray:
    return booster.predict(matrix, num_threads=1) if len(matrix) else np.zeros(0)


def isotonic(scores: np.ndarray, labels: np.ndarray) -> Calibration:
    """Pool-adjacent-violators: the non-decreasing step function closest to the labels, as at most
    ``CALIBRATION_POINTS`` (score, probability) points to interpolate."""
    order = np.argsort(scores, kind="stable")
    x, y = scores[order], labels[order].astype(float)
    blocks: list[list[float]] = []  # [sum of labels, count, highest score]
    for score, value in zip(x, y, strict=True):
        blocks.append([value, 1.0, score])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            total, count, top = blocks.pop()
            blocks[-1] = [blocks[-1][0] + total, blocks[-1][1] + count, top]
    points = [(top, total / count) for total, count, top in blocks]
    step = max(1, len(points) // CALIBRATION_POINTS)
    kept = points[::step] + ([points[-1]] if (len(points) - 1) % step else [])
    return Calibration(tuple(round(float(s), 6) for s, _ in kept), tuple(round(float(p), 4) for _, p in kept))


def version_of(booster: lightgbm.Booster, calibration: Calibration, take: float, review_below: ReviewBar,
               after_correction: AfterCorrection | None) -> str:
    digest = hashlib.sha256(booster.model_to_string().encode())
    digest.update(repr((calibration, take, review_below)).encode())
    if after_correction is not None:
        digest.update(repr(after_correction).encode())
    return f"reader-{digest.hexdigest()[:10]}"
