"""Scanned twins: a labelled born-digital document printed and scanned again, so that what scanning
costs is measured directly (the truth does not change; only how the pages are stored does).

Every page of a twin goes through ``hard_cases.scan`` at a resolution between 100 and 150 dpi, skewed
by up to 2°, blurred, with paper tint, sensor noise, dust and JPEG loss. Everything is drawn from a
generator seeded by the document's name and page, so a twin is the same file on every machine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from pathlib import Path

import numpy as np
import pymupdf

from skuflow_cli.evaluation.golden import GoldenDocument, load_golden_set
from skuflow_cli.evaluation.report import summary_table
from skuflow_cli.golden import hard_cases

TWIN_DPI = (100.0, 150.0)  # the range of a merchant's flatbed scan
TWIN_BLUR = (0.3, 0.9)  # Gaussian blur, in pixels of the scan
TWIN_KIND = "image-only"
INK = 160  # grey level below which a pixel is ink (small grey type on a tinted cell still is)
CORE = 0.25  # of a word box's width and height cut from each side before looking for its ink
INK_DPI = 144  # fine enough that 5-point type leaves whole pixels of ink
MIN_DRAWN = 0.5  # share of a page's words that must show on it for the page to be scanned


def scanned_twin(pdf: bytes, seed: str) -> bytes:
    """``pdf`` with every page replaced by a deterministic scan of itself."""
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    for index in range(len(doc)):
        rng = random.Random(f"{seed}:{index}")
        hard_cases.scan(doc, index, rng, dpi=rng.uniform(*TWIN_DPI), blur=rng.uniform(*TWIN_BLUR))
    return doc.tobytes(garbage=3, deflate=True, no_new_id=True)


def drawn_share(page: pymupdf.Page) -> float:
    """The share of the page's text-layer words that leave ink where they stand. A font embedded
    without its outlines shows nothing of a text layer that extracts perfectly: scanned, such a page
    is blank, and its truth (read from the text layer) is no longer on it."""
    words = page.get_text("words")
    if not words:
        return 1.0
    pix = page.get_pixmap(colorspace=pymupdf.csGRAY, alpha=False, dpi=INK_DPI)
    ink = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width) < INK
    zoom = INK_DPI / 72
    inked = 0
    for word in words:  # the word's core: a table's rules run along its edges
        x0, y0, x1, y1 = pymupdf.Rect(word[:4]) * page.rotation_matrix  # words come unrotated, pixels as shown
        dx, dy = (x1 - x0) * CORE, (y1 - y0) * CORE
        inked += bool(ink[max(int((y0 + dy) * zoom), 0):int((y1 - dy) * zoom) + 1,
                          max(int((x0 + dx) * zoom), 0):int((x1 - dx) * zoom) + 1].any())
    return inked / len(words)


def shows_its_text(pdf: Path) -> bool:
    with pymupdf.open(pdf) as doc:
        return all(drawn_share(page) >= MIN_DRAWN for page in doc)


def sampled(name: str, every: int) -> bool:
    """Is the document one of the ``1/every`` sample? Decided by its name's hash, so that documents added to
    the set leave the others' membership alone (a sample of every Nth name shifted with each addition, and
    the twins' figure with it)."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big") % every == 0


def twinned(source: Path, kind: str, every: int = 1) -> tuple[list[GoldenDocument], list[str]]:
    """About one in ``every`` labelled documents of ``source`` of that source kind (``sampled``), frozen ones
    left alone, and the names of those left out because a page does not show the text its truth was read
    from."""
    from skuflow_cli.training.run import FROZEN  # a batch kept for one measurement: never read, not even as a twin

    documents = [d for d in load_golden_set(source)
                 if (d.truth.get("source_kind") or "born-digital") == kind and d.truth.get("split") != FROZEN
                 and sampled(d.name, every)]
    shown = [d for d in documents if shows_its_text(d.pdf)]
    return shown, sorted({d.name for d in documents} - {d.name for d in shown})


def write_twins(documents: list[GoldenDocument], out: Path) -> list[GoldenDocument]:
    """Each document's twin as ``out/NAME.pdf`` beside its truth (source kind ``image-only``)."""
    twins = []
    for n, document in enumerate(documents, start=1):
        target = out / f"{document.name}.pdf"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(scanned_twin(document.pdf.read_bytes(), document.name))
        truth = {**document.truth, "source_kind": TWIN_KIND, "twin_of": document.name}
        target.with_name(target.stem + ".truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1),
                                                                 encoding="utf-8")
        twins.append(GoldenDocument(document.name, target, truth))
        print(f"\r[{n}/{len(documents)}] twin of {document.name[:50]:<50}", end="", flush=True)
    print()
    return twins


def scored(documents: list[GoldenDocument], via: str) -> dict:
    """The documents read in-process and scored, with a line of progress per document."""
    # the whole pipeline: imported here, not with the CLI, whose every command would wait seconds for it
    from skuflow_cli.evaluation.runner import Outcome, evaluate_documents, run_in_process

    started = time.perf_counter()

    def run(documents: list[GoldenDocument]) -> list[Outcome]:
        outcomes = []
        for n, document in enumerate(documents, start=1):
            outcomes += run_in_process([document])
            print(f"\r[{n}/{len(documents)}] {via}: {document.name[:50]:<50} "
                  f"{time.perf_counter() - started:6.0f} s", end="", flush=True)
        print()
        return outcomes

    return evaluate_documents(documents, run, {"via": via})


def comparison(original: dict, twin: dict) -> dict:
    """The twins' SKU F1 beside the originals', overall and per document."""
    def f1(report: dict) -> float:
        return report["overall"]["sku"]["f1"] or 0.0

    documents = {name: {"original": m["sku"]["f1"], "twin": twin["by_document"].get(name, {}).get("sku", {}).get("f1")}
                 for name, m in original["by_document"].items()}
    return {"original_f1": f1(original), "twin_f1": f1(twin),
            "ratio": round(f1(twin) / f1(original), 4) if f1(original) else None,
            "by_document": documents, "original": original, "twin": twin}


def run_twins(args: argparse.Namespace) -> int:
    documents, hidden = twinned(args.source, args.kind, args.every)
    if hidden:
        print(f"left out, their pages do not show the text their truth was read from: {', '.join(hidden)}")
    if not documents:
        print(f"skuflow golden twins: no {args.kind} document with a truth file below {args.source}")
        return 2
    twins = write_twins(documents, args.out)
    print(f"{len(twins)} twins written to {args.out}")
    if args.score is None:
        return 0
    result = {**comparison(scored(documents, "in-process, originals"), scored(twins, "in-process, scanned twins")),
              "left_out": hidden}
    args.score.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    print(summary_table(result["original"]), summary_table(result["twin"]), sep="\n\n")
    print(f"\nSKU F1: original {result['original_f1']:.3f}, scanned twin {result['twin_f1']:.3f}, "
          f"ratio {result['ratio']}\nreport: {args.score}")
    return 0


def add_twins_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", type=Path, help="a labelled set (NAME.pdf beside NAME.truth.json)")
    parser.add_argument("--out", type=Path, required=True, help="directory for the twins and their truth files")
    parser.add_argument("--kind", default="born-digital", help="twin the documents of this source kind")
    parser.add_argument("--every", type=int, default=1,
                        help="twin about one document in N, chosen by its name's hash (a deterministic sample that "
                             "documents added later do not shift, since OCR is slow)")
    parser.add_argument("--score", type=Path, default=None,
                        help="also read originals and twins in-process and write the comparison here")
    parser.set_defaults(run=run_twins)
