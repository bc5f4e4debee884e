"""``make bench``: throughput of the same generated 50-page catalog in-process and through Kafka.

Figures, not assertions. Each is printed as a table row and as a ``BENCH {json}`` line, next to
its baseline from the same run (bare PyMuPDF text+image extraction for the in-process pipeline).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import pymupdf

from skuflow_cli.catalog import generate_catalog
from skuflow_cli.main import main as cli_main
from skuflow_cli.pipeline import extract_file


def bare_pymupdf(pdf: Path) -> float:
    """Baseline: what PyMuPDF alone needs to read every page's text dict and image bytes."""
    started = time.perf_counter()
    with pymupdf.open(pdf) as doc:
        for page in doc:
            page.get_text("dict")
            for xref, *_ in page.get_images(full=True):
                doc.extract_image(xref)
    return time.perf_counter() - started


def in_process(pdf: Path, out: Path) -> float:
    started = time.perf_counter()
    extract_file(pdf, out)
    return time.perf_counter() - started


def through_kafka(pdf: Path, gateway: str) -> float | None:
    started = time.perf_counter()
    code = cli_main(["submit", str(pdf), "--gateway", gateway, "--timeout", "600"])
    return time.perf_counter() - started if code == 0 else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skuflow_cli.bench")
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--gateway", default=None, help="running gateway URL; omit to skip the Kafka figure")
    args = parser.parse_args(argv)
    rows: list[tuple[str, float, str, str]] = []
    with tempfile.TemporaryDirectory(prefix="skuflow-bench-") as scratch:
        pdf = Path(scratch) / "catalog.pdf"
        generate_catalog(pdf, pages=args.pages, seed=50)
        base = args.pages / bare_pymupdf(pdf)
        local = args.pages / in_process(pdf, Path(scratch) / "out")
        rows += [("pymupdf_bare_pages_per_s", base, "pages/s", "baseline"),
                 ("extract_in_process_pages_per_s", local, "pages/s", f"{local / base:.2f}x of bare PyMuPDF")]
        if args.gateway:
            seconds = through_kafka(pdf, args.gateway)
            if seconds is None:
                print("bench: the Kafka pipeline did not complete", file=sys.stderr)
                return 1
            kafka = args.pages / seconds
            rows.append(("kafka_pipeline_pages_per_s", kafka, "pages/s",
                         f"{kafka / local:.2f}x of in-process (upload to job completed)"))
    print(f"\n{'figure':<34} {'value':>10}  unit     vs baseline")
    for name, value, unit, note in rows:
        print(f"{name:<34} {value:>10.2f}  {unit:<8} {note}")
    for name, value, unit, note in rows:
        print("BENCH " + json.dumps({"name": name, "value": round(value, 3), "unit": unit, "note": note,
                                     "pages": args.pages}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
