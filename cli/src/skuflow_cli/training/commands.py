"""The command line of the reader's training: ``skuflow train`` and ``skuflow eval --cross-validate batch``."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

OCR_TAPE = Path("tests/ocr-tape")  # the corpus's recorded OCR answers (skuflow_parser/backends/ocr_tape.py)
UNTOUCHED = Path("tests/real/untouched.json")  # each batch's figure when it was new to the rules


def _processes(value: str) -> int:
    count = int(value) if value.isdigit() else 0
    if count < 1:
        raise argparse.ArgumentTypeError(f"--jobs wants a number of processes, 1 or more (got {value!r})")
    return count


def _corpus_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--real", type=Path, default=Path("tests/real"), help="the real-catalog set")
    parser.add_argument("--golden", type=Path, default=Path("tests/golden"), help="the golden set")
    parser.add_argument("--corrections", type=Path, action="append", default=[],
                        help="a directory of pages annotators corrected (NAME.pdf + NAME.truth.json), from "
                             "`skuflow corrections export`; repeatable")
    parser.add_argument("--cache", type=Path, default=Path(".cache/reader"), help="parsed pages, by PDF and parser")
    parser.add_argument("--ocr-tape", type=Path, default=OCR_TAPE,
                        help="recorded OCR answers the corpus is read with: replayed where recorded, recorded where "
                             "not, so every machine reads the scans alike (default: the committed tape)")
    parser.add_argument("--no-ocr-tape", dest="ocr_tape", action="store_const", const=None,
                        help="read the scans with this machine's OCR alone (cached apart)")
    parser.add_argument("--jobs", type=_processes, default=os.cpu_count() or 1,
                        help="processes that parse the pages not in the cache (default: one per core; a worker "
                             "that reads scans holds up to ~0.8 GB)")


def _no_tape_here(args: argparse.Namespace) -> bool:
    """Whether the default tape is not where this command runs: it is found from the repository's root, and
    elsewhere recording into a new tape beside the working directory would leave the committed one behind."""
    if args.ocr_tape != OCR_TAPE or OCR_TAPE.is_dir():
        return False
    print(f"skuflow: no OCR tape at {OCR_TAPE} here; run from the repository's root, or name one (--ocr-tape DIR) "
          "or none (--no-ocr-tape)", file=sys.stderr)
    return True


def _untouched() -> dict[str, float]:
    return json.loads(UNTOUCHED.read_text(encoding="utf-8"))["sku_f1"] if UNTOUCHED.is_file() else {}


def _prune_tape(args: argparse.Namespace) -> int:
    """``skuflow train --prune-tape``: delete the tape's recordings no page of the corpus asks for any more."""
    from skuflow_cli.training.corpus import stale_recordings
    from skuflow_cli.training.run import load_corpus

    if args.ocr_tape is None or not args.ocr_tape.is_dir():
        print(f"skuflow train: no OCR tape at {args.ocr_tape} to prune", file=sys.stderr)
        return 2
    corpus = load_corpus(args.real, args.golden, args.corrections)
    if corpus.missing:
        print(f"skuflow train: {len(corpus.missing)} documents of the corpus are not on this machine (their "
              "recordings would look unasked); rebuild them first (tests/real/build.py)", file=sys.stderr)
        return 2
    stale = stale_recordings([document.pdf for document in corpus.documents], args.ocr_tape, args.jobs)
    for path in stale:
        path.unlink()
    print(f"OCR tape {args.ocr_tape}: {len(stale)} recordings no page asks for deleted")
    return 0


def _train(args: argparse.Namespace) -> int:
    from skuflow_classifier.domain import page_types
    from skuflow_cli.training.run import corpus_manifest, learn, load_corpus, samples_of, table, write_report
    from skuflow_extractor.reading.decisions import MODEL_DIR

    if _no_tape_here(args):
        return 2
    if args.prune_tape:
        return _prune_tape(args)

    out, types_out = (args.out, args.out) if args.out else (MODEL_DIR, page_types.MODEL_DIR)
    started = time.perf_counter()
    corpus = load_corpus(args.real, args.golden, args.corrections)
    readings = samples_of(corpus, args.cache, args.jobs, args.ocr_tape)
    reader, result = learn(readings)
    manifest = corpus_manifest(corpus, readings.samples)
    readings.page_types.served.save(types_out, manifest)
    reader.save(out, {**manifest, "page_types": readings.page_types.served.version})
    write_report(result, args.report, _untouched())
    print(table(result, _untouched()))
    print(f"\n{reader.version} written to {out}, {readings.page_types.served.version} to {types_out} "
          f"({manifest['pages']} pages, {time.perf_counter() - started:.0f} s); held-out report: {args.report}")
    return 0


def cross_validate(args: argparse.Namespace) -> int:
    """``skuflow eval --cross-validate batch``: the held-out figures, without writing a reader."""
    from skuflow_cli.training.run import held_out, load_corpus, samples_of, table, write_report

    if args.cross_validate != "batch":
        print("skuflow eval: only --cross-validate batch is known", file=sys.stderr)
        return 2
    if _no_tape_here(args):
        return 2
    result = held_out(samples_of(load_corpus(args.real, args.golden, args.corrections), args.cache, args.jobs,
                       args.ocr_tape)).report
    write_report(result, args.out, _untouched())
    print(table(result, _untouched()))
    print(f"report: {args.out}")
    return 0


def adaptation(args: argparse.Namespace) -> int:
    """``skuflow eval --adaptation``: correct one page of each repeated layout from its truth and read the
    rest again, on pages the reader never learned from (issue 42)."""
    from skuflow_cli.training import adaptation as simulation
    from skuflow_cli.training.crossval import without_each_batch
    from skuflow_cli.training.run import load_corpus, samples_of
    from skuflow_extractor.reading.decisions import committed_reader

    if _no_tape_here(args):
        return 2
    base = committed_reader()
    if base is None:
        print("skuflow eval: no committed reader to adapt; run `skuflow train`", file=sys.stderr)
        return 2
    samples = samples_of(load_corpus(args.real, args.golden, args.corrections), args.cache, args.jobs,
                       args.ocr_tape).samples
    result = simulation.report(simulation.simulate(samples, dict(without_each_batch(samples)), base))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(simulation.table(result) + "\n", encoding="utf-8")
    print(simulation.table(result))
    print(f"report: {args.out}")
    return 0


def add_training_commands(sub: argparse._SubParsersAction, evaluation: argparse.ArgumentParser) -> None:
    train = sub.add_parser("train", help="learn the page reader from the labelled pages and write its artifact")
    _corpus_arguments(train)
    train.add_argument("--out", type=Path, default=None, help="where the reader and page-type artifacts go "
                       "(committed; default: the extractor's reading/model/ and the classifier's model/)")
    train.add_argument("--report", type=Path, default=Path("docs/reader/cross-validation.json"),
                       help="the held-out (leave-one-batch-out) report, JSON and a .md table beside it")
    train.add_argument("--prune-tape", action="store_true",
                       help="train nothing: parse the corpus afresh with the OCR tape and delete the recordings no "
                            "engine call asked for (after a parser change to what the engines are given)")
    train.set_defaults(run=_train)
    evaluation.add_argument("--cross-validate", choices=["batch"], default=None,
                            help="train without each real batch in turn and score it (no golden_dir needed)")
    evaluation.add_argument("--adaptation", action="store_true",
                            help="held out: correct one page of each repeated layout from its truth and score "
                                 "the rest read again with the reader adapted to it (issue 42)")
    _corpus_arguments(evaluation)
