"""The evaluation report: overall scores, breakdowns, route confusion and throughput."""

from __future__ import annotations

from collections import defaultdict

from skuflow_cli.evaluation.scoring import ScoredPage, Tally

BREAKDOWNS = {"by_page_type": "page_type", "by_layout": "layout", "by_language": "language",
              "by_source_kind": "source_kind", "by_split": "split", "by_document": "document"}
SUMMARY_BREAKDOWNS = ("by_split", "by_page_type", "by_layout", "by_language", "by_source_kind")


def _sum(pages: list[ScoredPage]) -> Tally:
    total = Tally()
    for page in pages:
        total += page.tally
    return total


def build_report(scored: list[ScoredPage], routes: list[tuple[str | None, str | None]], *, seconds: float,
                 total_pages: int, meta: dict) -> dict:
    """``routes`` holds (expected, predicted) per document; ``total_pages`` counts uncertain pages too."""
    confusion: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for expected, predicted in routes:
        confusion[expected or "none"][predicted or "none"] += 1
    report = {
        **meta,
        "documents": len(routes),
        "pages": total_pages,
        "scored_pages": len(scored),
        "seconds": round(seconds, 3),
        "pages_per_second": round(total_pages / seconds, 2) if seconds else 0.0,
        "overall": _sum(scored).metrics(),
        "route_confusion": {k: dict(v) for k, v in sorted(confusion.items())},
        "route_accuracy": _route_accuracy(routes),
    }
    for name, attribute in BREAKDOWNS.items():
        groups: dict[str, list[ScoredPage]] = defaultdict(list)
        for page in scored:
            groups[getattr(page, attribute)].append(page)
        report[name] = {key: _sum(pages).metrics() for key, pages in sorted(groups.items())}
    return report


def _route_accuracy(routes: list[tuple[str | None, str | None]]) -> float | None:
    """Over documents whose truth expects a route; None when none does (the real set labels none)."""
    expected = [(e, p) for e, p in routes if e]
    return round(sum(e == p for e, p in expected) / len(expected), 4) if expected else None


def _cell(value: float | None) -> str:
    return f"{value:>6.3f}" if value is not None else f"{'-':>6}"


def _row(label: str, m: dict) -> str:
    sku, binding = m["sku"], m["binding"]
    figures = (sku["precision"], sku["recall"], sku["f1"], m["page_type_accuracy"], m["layout_accuracy"],
               binding["precision"], binding["recall"], m["human_intervention_rate"])
    return f"{label:<22} {m['pages']:>5} " + " ".join(_cell(v) for v in figures)


def summary_table(report: dict) -> str:
    header = (f"{'':<22} {'pages':>5} {'P':>6} {'R':>6} {'F1':>6} {'type':>6} {'layout':>6} {'bindP':>6} "
              f"{'bindR':>6} {'human':>6}")
    lines = [f"skuflow eval: {report['documents']} documents, {report['pages']} pages "
             f"({report['scored_pages']} scored) in {report['seconds']:.1f}s = {report['pages_per_second']:.1f} "
             f"pages/s, via {report['via']}", header, _row("overall", report["overall"])]
    for name in SUMMARY_BREAKDOWNS:
        if len(report[name]) > 1 or name != "by_split":
            lines += [_row(f"  {name[3:]}={key}", metrics) for key, metrics in report[name].items()]
    overall = report["overall"]
    attributes = overall["attributes"]
    lines.append("attribute accuracy: " + ", ".join(f"{k} {_cell(v['accuracy']).strip()}"
                                                    for k, v in attributes.items()))
    silent, flag = overall["silent_loss"], overall["review_flag"]
    lines.append(f"silent loss: {silent['pages']} of {silent['product_pages']} product pages "
                 f"(rate {_cell(silent['rate']).strip()}); review flag as a detector of pages with errors: "
                 f"precision {_cell(flag['precision']).strip()}, recall {_cell(flag['recall']).strip()} "
                 f"({flag['flagged_error_pages']} of {flag['error_pages']} error pages flagged)")
    lines.append(f"route accuracy {_cell(report['route_accuracy']).strip()}; confusion (expected → predicted): "
                 + "; ".join(f"{e} → {dict(p)}" for e, p in report["route_confusion"].items()))
    return "\n".join(lines)
