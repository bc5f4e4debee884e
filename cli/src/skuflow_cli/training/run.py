"""``skuflow train`` and ``skuflow eval --cross-validate batch``: from the labelled corpus to the
committed reader and the report that says how it reads pages it never saw."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import lightgbm

from skuflow_cli.training.adaptation import after_correction, relearned_cases
from skuflow_cli.training.corpus import CORRECTIONS, GOLDEN, Document, PageCache, labelled_documents, real_documents
from skuflow_cli.training.crossval import (
    HeldOut,
    calibrate,
    choose_review,
    choose_take,
    report,
    scored,
    stacked,
    without_each_batch,
)
from skuflow_cli.training.fit import raw_scores, train, version_of
from skuflow_cli.training.page_types import PageTypes, learn_page_types, rule_readings
from skuflow_cli.training.samples import CONFIG_VERSION, PageSample, corpus_samples
from skuflow_contracts.profile import profile_for
from skuflow_extractor.reading.decisions import Calibration, Reader, ReviewBar

FROZEN = "frozen"  # a batch labelled and kept apart, measured once with the final reader


@dataclass(frozen=True)
class Corpus:
    documents: list[Document]
    missing: list[str]  # real documents whose PDF is not here (tests/real/build.py rebuilds them)


def load_corpus(real: Path, golden: Path, corrections: list[Path]) -> Corpus:
    documents, missing = real_documents(real)
    documents = [d for d in documents if d.split != FROZEN]
    documents += labelled_documents(golden, GOLDEN)
    for directory in corrections:
        documents += labelled_documents(directory, CORRECTIONS)
    return Corpus(documents, missing)


@dataclass(frozen=True)
class Readings:
    """The labelled corpus read up to the reader's decision, and the page types it was read with."""

    samples: list[PageSample]
    page_types: PageTypes


@dataclass(frozen=True)
class HeldOutReading:
    """What leaving one batch out at a time gives: the models trained without each batch, the
    calibration, both thresholds and the report."""

    boosters: dict[str, lightgbm.Booster]
    calibration: Calibration
    take: float
    review_below: ReviewBar
    report: dict


def held_out(readings: Readings) -> HeldOutReading:
    boosters = dict(without_each_batch(readings.samples))
    held = [HeldOut(s, raw_scores(boosters[s.batch], s.matrix)) for s in readings.samples if s.batch in boosters]
    real = scored(held)
    calibration = calibrate(real)
    take = choose_take(real, calibration)
    review_below = choose_review(real, calibration, take)
    return HeldOutReading(boosters, calibration, take, review_below, {
        **report(held, calibration, take, review_below), "page_types": readings.page_types.report})


def learn(readings: Readings) -> tuple[Reader, dict]:
    """The reader trained on every sample, calibrated and thresholded on held-out predictions, with the
    calibration and take of its adapted scores chosen on corrections simulated held out; and the
    held-out report."""
    found = held_out(readings)
    booster = train(*stacked(readings.samples))
    reader = Reader("", booster, found.calibration, found.take, found.review_below)
    relearned = relearned_cases(readings.samples, found.boosters, reader)
    after = after_correction(relearned)
    reader = replace(reader, version=version_of(booster, found.calibration, found.take, found.review_below, after),
                     after_correction=after)
    chosen_on = {"documents": len(relearned), "pages": sum(len(r.after) for r in relearned)}
    bars = {"review_below": asdict(after.review_below)} if after and after.review_below else {}
    return reader, {**found.report, "after_correction": {"take": after.take, **bars, **chosen_on} if after else None}


def corpus_manifest(corpus: Corpus, samples: list[PageSample]) -> dict:
    batches: dict[str, dict[str, int]] = {}
    for s in samples:
        entry = batches.setdefault(s.batch, {"pages": 0, "candidates": 0, "right": 0})
        entry["pages"] += int(not s.bare)
        entry["candidates"] += len(s.labels)
        entry["right"] += int(s.labels.sum())
    return {"documents": len(corpus.documents), "pages": sum(1 for s in samples if not s.bare), "batches": batches,
            "missing_pdfs": corpus.missing}


def samples_of(corpus: Corpus, cache: Path, jobs: int = 1, tape: Path | None = None) -> Readings:
    """Every corpus page as a sample, typed by the page-type model trained without its batch; pages the
    parser has not read yet are read first, in ``jobs`` processes, their OCR answered by ``tape``."""
    if corpus.missing:
        print(f"skuflow: {len(corpus.missing)} real documents have no PDF here (run tests/real/build.py); "
              f"left out: {', '.join(corpus.missing[:8])}{' …' if len(corpus.missing) > 8 else ''}", file=sys.stderr)
    pages = PageCache(cache, tape=tape)
    if jobs > 1:
        pages.warm([d.pdf for d in corpus.documents], jobs)
    profile = profile_for(CONFIG_VERSION)
    page_types = learn_page_types(rule_readings(corpus.documents, pages, profile),
                                  profile.classification.page_type_min_confidence)
    return Readings(corpus_samples(corpus.documents, pages, page_types), page_types)


def table(result: dict, untouched: dict[str, float]) -> str:
    """The held-out report as a markdown table: per batch, the reader beside the rules (tuned on every
    batch, so flattered here) and the rules' figure when the batch was new to them."""
    lines = ["| batch | pages | SKUs | reader P | reader R | reader F1 | rules F1 (tuned) | rules F1 untouched |"
             " price |", "|---|---|---|---|---|---|---|---|---|"]

    def cell(value: float | None) -> str:
        return f"{value:.3f}" if value is not None else "–"

    def share(value: float | None) -> str:
        return f"{value:.0%}" if value is not None else "–"

    for batch, b in result["batches"].items():
        lines.append(f"| {batch} | {b['pages']} | {b['truth_skus']} | {cell(b['reader']['precision'])} | "
                     f"{cell(b['reader']['recall'])} | {cell(b['reader']['f1'])} | {cell(b['rules']['f1'])} | "
                     f"{cell(untouched.get(batch))} | {cell(b['price_accuracy'])} |")
    overall, weighted = result["overall"]["sku"], result["sku_weighted_mean"]
    lines.append(f"| all (micro) | {result['pages']} | {overall['truth']} | {cell(overall['precision'])} | "
                 f"{cell(overall['recall'])} | {cell(overall['f1'])} | {cell(result['rules_overall']['sku']['f1'])} |"
                 f" | {cell(result['overall']['attributes'].get('price', {}).get('accuracy'))} |")
    lines.append(f"| SKU-weighted mean | | | {cell(weighted['precision'])} | {cell(weighted['recall'])} | "
                 f"{cell(weighted['f1'])} | | | |")
    lines += ["", "| source kind | pages | SKUs | reader P | reader R | reader F1 | silent loss |",
              "|---|---|---|---|---|---|---|"]
    lines += [f"| {kind} | {k['pages']} | {k['truth']} | {cell(k['precision'])} | {cell(k['recall'])} | "
              f"{cell(k['f1'])} | {k['silent_loss']['pages']} of {k['silent_loss']['product_pages']} |"
              for kind, k in result["by_source_kind"].items()]
    types, called_d = result["page_types"], result["page_types"]["product_pages_called_D"]
    lines += ["", f"Page types held out by batch ({types['pages']} real pages): the learned type is the labelled "
              f"one on {share(types['learned_right'])} (the rules' on {share(types['rules_right'])}); sure of "
              f"{share(types['learned_sure'])} of pages, right on {share(types['learned_right_when_sure'])} of "
              f"those; product pages called D: {share(called_d['learned'])} (the rules {share(called_d['rules'])})."]
    unflagged, nested = result["unflagged"], result["unflagged_bars_chosen_without_the_batch"]
    bare = result["without_rules"]
    lines += ["", f"Read as if no rule reader had fired (the cells alone): P {cell(bare['precision'])}, "
              f"R {cell(bare['recall'])}, F1 {cell(bare['f1'])}."]
    lines += ["", f"Take at p ≥ {result['take']}; review pages under confidence "
              f"{result['review_below']['text_layer']:.4f} (text layer), {result['review_below']['ocr']:.4f} (OCR): "
              f"{unflagged['pages']} pages unflagged, SKU precision {cell(unflagged['sku_precision'])}, "
              f"recall {cell(unflagged['sku_recall'])}, {unflagged['product_pages_unflagged_share']:.0%} of product "
              f"pages unflagged. With the bars chosen without each batch in turn: SKU precision "
              f"{cell(nested['sku_precision'])}, {nested['product_pages_unflagged_share']:.0%} of product pages "
              f"unflagged. Calibration ECE {result['calibration']['ece']}.", "",
              "| p | candidates | mean p | right |", "|---|---|---|---|"]
    lines += [f"| {b['bin']} | {b['candidates']} | {b['mean_probability']} | {b['right']} |"
              for b in result["calibration"]["bins"]]
    if after := result.get("after_correction"):
        bars = after.get("review_below")
        lines += ["", f"Adapted to a person's correction, the reader takes at p ≥ {after['take']} on its own "
                  "calibration" + (f" and reviews pages under confidence {bars['text_layer']} (text layer), "
                                   f"{bars['ocr']} (OCR)" if bars else "") + f", all chosen on {after['pages']} "
                  f"pages of {after['documents']} documents read again after a correction of their first page, "
                  "held out (`skuflow eval --adaptation`)."]
    lines += ["", "With the bars chosen without each batch, that batch's pages:", "",
              "| batch | bars (text layer, OCR) | pages unflagged | product pages unflagged | SKU precision | "
              "wrong SKUs unflagged |", "|---|---|---|---|---|---|"]
    lines += [f"| {batch} | {b['review_below']['text_layer']:.4f}, {b['review_below']['ocr']:.4f} | {b['pages']} | "
              f"{b['product_pages_unflagged_share']:.0%} | {cell(b['sku_precision'])} | {b['wrong_skus_unflagged']} |"
              for batch, b in nested.get("batches", {}).items()]
    return "\n".join(lines)


def write_report(result: dict, out: Path, untouched: dict[str, float]) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    out.with_suffix(".md").write_text(table(result, untouched) + "\n", encoding="utf-8")
