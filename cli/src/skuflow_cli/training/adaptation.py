"""Correct one page, the rest follow, simulated on pages the reader never learned from (issue 42).

For every real document with at least ``MIN_PAGES`` product pages of one layout, the first of them is
corrected from its truth, as a person would in the workbench, and the rest are read again with the
reader adapted to that correction, the columns it taught among their candidates. Every reading is
held out: the reader is the one trained without the document's batch (leave one batch out), with the
calibration and thresholds of the committed reader, and its adapted scores are read with a calibration
and take for corrections chosen on the other batches' simulated corrections (``skuflow train`` chooses the
committed reader's on all of them). The figures are those of the remaining pages, before and after: SKU
F1, how many leave review, and the precision of those that do.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from dataclasses import dataclass, replace

import lightgbm

from skuflow_cli.evaluation.scoring import score_page
from skuflow_cli.training.corpus import CORRECTIONS, GOLDEN
from skuflow_cli.training.crossval import HeldOut, Judged, calibrate, choose_review, choose_take, judge, tally
from skuflow_cli.training.fit import raw_scores
from skuflow_cli.training.samples import PageSample
from skuflow_extractor.reading.adaptation import (
    adapted,
    lesson,
    read_to_nothing,
    scan_bar,
    spelled_right,
    taught_columns,
    typed_as,
)
from skuflow_extractor.reading.candidates import TaughtColumn, candidates
from skuflow_extractor.reading.decisions import AfterCorrection, Reader
from skuflow_extractor.reading.features import features
from skuflow_extractor.reading.labels import labels_of
from skuflow_extractor.reading.layouts import canonical, layout_of
from skuflow_extractor.reading.pipeline import DecisionInputs

MIN_PAGES = 3  # a layout repeated on fewer product pages teaches too few others to measure


@dataclass(frozen=True)
class Case:
    """A document's largest layout: the page corrected and the pages read again."""

    document: str
    batch: str
    layout: str
    corrected: PageSample
    rest: list[PageSample]


def cases(samples: list[PageSample]) -> list[Case]:
    by_document: dict[str, list[PageSample]] = defaultdict(list)
    for s in samples:
        if not s.bare and s.batch not in (GOLDEN, CORRECTIONS) and s.truth.get("skus"):
            by_document[s.document].append(s)
    found = []
    for document, pages in by_document.items():
        known: list[str] = []
        clusters: dict[str, list[PageSample]] = defaultdict(list)
        for s in sorted(pages, key=lambda s: s.page):
            layout = canonical(layout_of(s.geo), known)
            if layout is not None:
                known += [layout] if layout not in known else []
                clusters[layout].append(s)
        if clusters:
            layout, members = max(clusters.items(), key=lambda kv: len(kv[1]))
            if len(members) >= MIN_PAGES:
                found.append(Case(document, members[0].batch, layout, members[0], members[1:]))
    return found


@dataclass(frozen=True)
class Relearned:
    """A case's correction taught: the remaining pages as the held-out reader scored them, and scored again
    with their taught columns by that reader adapted to the correction (raw scores: how they are read is
    chosen apart, without the case's batch)."""

    case: Case
    reader: Reader  # the reader trained without the case's batch
    before: list[HeldOut]
    after: list[HeldOut]
    ocr_spelled: bool  # the correction's keys as OCR spelled them: its scans held to the text layers' bar
    repeats_doubt: bool  # whether the adapted reader doubts a page for a taken key printed again


@dataclass(frozen=True)
class Outcome:
    case: Case
    before: list[Judged]
    after: list[Judged]
    doubted: bool


def with_columns(sample: PageSample, columns: tuple[TaughtColumn, ...], page_type: str | None = None) -> PageSample:
    """The page's candidates with the taught columns' cells among them, and their features and labels;
    its type the corrected page's (``page_type``) where the classifier doubted it."""
    classification = typed_as(sample.classification, page_type) if sample.classification else None
    found = candidates(sample.geo, sample.engine, columns)
    return replace(sample, found=found, matrix=features(sample.geo, found, classification, sample.method),
                   labels=labels_of(found, sample.truth.get("skus", []), sample.geo), classification=classification,
                   page_type=classification.page_type if classification else sample.page_type)


def relearn(case: Case, reader: Reader) -> Relearned:
    """Correct the case's first page from its truth, as a person would, and adapt ``reader`` to it."""
    products = case.corrected.truth["skus"]
    columns = taught_columns(case.corrected.geo, products)
    corrected = with_columns(case.corrected, columns)
    page_type = case.corrected.truth.get("page_type")  # as the person left the corrected page
    taught = lesson(DecisionInputs(corrected.geo, corrected.found, corrected.matrix), products, columns, page_type)
    adapted_reader = adapted(reader, [taught])
    rest = [with_columns(s, columns, page_type) for s in case.rest]
    return Relearned(case, reader, [HeldOut(s, raw_scores(reader.booster, s.matrix)) for s in case.rest],
                     [HeldOut(s, raw_scores(adapted_reader.booster, s.matrix), columns, adapted_reader.taught_share)
                      for s in rest],
                     spelled_right([taught]), adapted_reader.repeats_doubt)


def after_correction(relearned: list[Relearned]) -> AfterCorrection | None:
    """The calibration of adapted scores, their take and review bars, chosen on the pages the corrections re-read.
    The bars answer for the precision of what a page reads, so they are chosen on the pages read short of their
    lesson too (``fewer_products_than_taught`` flags what is missing, not what is wrong)."""
    held = [h for r in relearned for h in r.after]
    if not held:
        return None
    calibration = calibrate(held)
    take = choose_take(held, calibration)
    bars = choose_review([replace(h, taught_share=None) for h in held], calibration, take, repeats_doubt=False)
    return AfterCorrection(calibration, take, bars)


def outcome(r: Relearned, after: AfterCorrection | None) -> Outcome:
    """The remaining pages as delivered before the correction and after it, adapted scores read by ``after``.
    A correction that reads a page to nothing is doubted: every page flagged, that one keeping its reading."""
    before = [judge(h, r.reader.calibration, r.reader.take, r.reader.review_below) for h in r.before]
    tuned = after or AfterCorrection(r.reader.calibration, r.reader.take)
    bars = scan_bar(tuned.review_below or r.reader.review_below, r.ocr_spelled)
    now = [judge(h, tuned.calibration, tuned.take, bars, r.repeats_doubt) for h in r.after]
    lost = read_to_nothing([len(j.predicted["skus"]) for j in before], [len(j.predicted["skus"]) for j in now])
    doubted = any(lost)
    if doubted:
        delivered = [was if kept else new for was, new, kept in zip(before, now, lost, strict=True)]
        now = [replace(j, flagged=True, predicted={**j.predicted, "needs_review": True}) for j in delivered]
    return Outcome(r.case, before, now, doubted)


def relearned_cases(samples: list[PageSample], boosters: dict[str, lightgbm.Booster], base: Reader) -> list[Relearned]:
    """Every case relearned by ``base`` with the model trained without its batch, saying which on stderr."""
    found = cases(samples)
    out = []
    for n, case in enumerate(found, start=1):
        print(f"\r[{n}/{len(found)}] correcting {case.document:<48}", end="", file=sys.stderr, flush=True)
        out.append(relearn(case, replace(base, booster=boosters[case.batch])))
    print(file=sys.stderr)
    return out


def simulate(samples: list[PageSample], boosters: dict[str, lightgbm.Booster], base: Reader) -> list[Outcome]:
    """Each case read with the calibration and take for corrections chosen without its batch."""
    relearned = relearned_cases(samples, boosters, base)
    return [outcome(r, after_correction([o for o in relearned if o.case.batch != r.case.batch]))
            for r in relearned]


def _side(judged: list[Judged]) -> dict:
    sku = tally(judged).metrics()["sku"]
    unflagged = [j for j in judged if not j.flagged]
    kept = tally(unflagged).metrics()["sku"]
    return {"precision": sku["precision"], "recall": sku["recall"], "f1": sku["f1"],
            "pages_unflagged": len(unflagged), "unflagged_sku_precision": kept["precision"]}


STILL_FLAGGED = ("a wrong SKU", "read to nothing", "the correction doubted", "read right, a product missed",
                 "read right")


def still_flagged(outcomes: list[Outcome]) -> dict[str, int]:
    """Why the pages flagged after the correction stay flagged, most telling first: one that carries a wrong
    SKU or is read to nothing is rightly flagged; one read right is flagged by its confidence, a possible
    miss, an SKU under the profile's bar or a doubt about its type (only reading those surer frees them)."""
    counts = dict.fromkeys(STILL_FLAGGED, 0)
    for o in outcomes:
        for j in o.after:
            if not j.flagged:
                continue
            t = score_page(j.sample.truth, j.predicted)
            reason = ("a wrong SKU" if t.sku_predicted > t.sku_matched else "read to nothing" if not t.sku_predicted
                      else "the correction doubted" if o.doubted
                      else "read right, a product missed" if t.sku_matched < t.sku_truth else "read right")
            counts[reason] += 1
    return counts


def report(outcomes: list[Outcome]) -> dict:
    before = [j for o in outcomes for j in o.before]
    after = [j for o in outcomes for j in o.after]
    left = [a for b, a in zip(before, after, strict=True) if b.flagged and not a.flagged]
    return {
        "documents": len(outcomes), "pages_corrected": len(outcomes), "pages_read_again": len(after),
        "truth_skus": tally(after).metrics()["sku"]["truth"],
        "before": _side(before), "after": _side(after),
        "pages_leaving_review": len(left), "pages_flagged_before": sum(1 for j in before if j.flagged),
        "leaving_review_sku_precision": tally(left).metrics()["sku"]["precision"],
        "doubted": [o.case.document for o in outcomes if o.doubted],
        "still_flagged": still_flagged(outcomes),
        "by_document": [{"document": o.case.document, "batch": o.case.batch, "layout": o.case.layout,
                         "corrected_page": o.case.corrected.page, "pages": [s.page for s in o.case.rest],
                         "before": _side(o.before), "after": _side(o.after), "doubted": o.doubted}
                        for o in outcomes],
    }


def table(result: dict) -> str:
    def cell(value: float | None) -> str:
        return f"{value:.3f}" if value is not None else "–"

    b, a = result["before"], result["after"]
    lines = [f"{result['documents']} documents, one page corrected in each, {result['pages_read_again']} pages read "
             f"again ({result['truth_skus']} products).", "",
             "| remaining pages | precision | recall | F1 | pages unflagged | their SKU precision |",
             "|---|---|---|---|---|---|",
             f"| before the correction | {cell(b['precision'])} | {cell(b['recall'])} | {cell(b['f1'])} | "
             f"{b['pages_unflagged']} | {cell(b['unflagged_sku_precision'])} |",
             f"| after | {cell(a['precision'])} | {cell(a['recall'])} | {cell(a['f1'])} | "
             f"{a['pages_unflagged']} | {cell(a['unflagged_sku_precision'])} |", "",
             f"Pages leaving review: {result['pages_leaving_review']} of the {result['pages_flagged_before']} flagged "
             f"before (SKU precision on them {cell(result['leaving_review_sku_precision'])}). Corrections doubted "
             f"(their readings flagged): {len(result['doubted'])}.", "",
             "Pages still flagged after the correction, by what their reading holds: " + "; ".join(
                 f"{reason} {count}" for reason, count in result["still_flagged"].items()) + ".", "",
             "| document | batch | corrected | pages | F1 before | F1 after | unflagged before | after |",
             "|---|---|---|---|---|---|---|---|"]
    lines += [f"| {d['document']} | {d['batch']} | {d['corrected_page']} | {len(d['pages'])} | "
              f"{cell(d['before']['f1'])} | {cell(d['after']['f1'])}{' (doubted)' if d['doubted'] else ''} | "
              f"{d['before']['pages_unflagged']} | {d['after']['pages_unflagged']} |" for d in result["by_document"]]
    return "\n".join(lines)
