"""``make fuzz``: hostile and broken PDFs through the parser's path (document check, then pages).

Every file must end with pages (each ok or failed with a reason) or a refusal with a reason,
inside its budget, without an exception escaping the worker pool. Prints the outcomes by reason,
crashes, the slowest file and peak RSS; exits 1 on any crash.

    python -m tests.fuzz.run --mutations 1000
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import resource
import sys
import tempfile
import time
from pathlib import Path

from skuflow_parser.domain.security import SecurityLimits
from skuflow_parser.pages import ParserConfig
from skuflow_parser.workers import PagePool
from tests.fuzz.hostile import HOSTILE, mutations

HASH = "f0" * 32
MAX_PAGES_PER_FILE = 3


def _reason(text: str) -> str:
    return text.split(":", 1)[0].split(" (", 1)[0]


async def fuzz(files: list[tuple[str, bytes]], workdir: Path, budget: float) -> tuple[collections.Counter, list, float]:
    pool = PagePool(workers=1, max_tasks_per_child=100, page_budget_seconds=budget,
                    config=ParserConfig(ocr_enabled=False), document_budget_seconds=budget)
    outcomes: collections.Counter = collections.Counter()
    crashes: list[tuple[str, str]] = []
    slowest = ("", 0.0)
    try:
        for n, (name, data) in enumerate(files, start=1):
            path = workdir / "input.pdf"
            path.write_bytes(data)
            started = time.perf_counter()
            try:
                checked = await pool.check(str(path), SecurityLimits())
                if checked.reason:
                    outcomes[f"refused {checked.reason}"] += 1
                for index in range(min(checked.page_count, MAX_PAGES_PER_FILE)):
                    page = (await pool.parse(str(path), index, HASH)).page
                    outcomes["page ok" if page.status == "ok" else f"page failed {_reason(page.failure_reason)}"] += 1
                if checked.warnings:
                    outcomes["warned repaired"] += 1
            except Exception as exc:  # the very thing this run exists to find
                crashes.append((name, f"{type(exc).__name__}: {exc}"))
            took = time.perf_counter() - started
            slowest = max(slowest, (name, took), key=lambda item: item[1])
            if n % 50 == 0 or n == len(files):
                print(f"fuzz: {n}/{len(files)} files, {len(crashes)} crashes", file=sys.stderr, flush=True)
    finally:
        pool.close()
    return outcomes, crashes, slowest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument("--budget", type=float, default=30.0, help="seconds per document check and per page")
    args = parser.parse_args(argv)
    files = [(name, build()) for name, build in HOSTILE.items()] + list(mutations(args.seed, args.mutations))
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as workdir:
        outcomes, crashes, slowest = asyncio.run(fuzz(files, Path(workdir), args.budget))
    seconds = time.perf_counter() - started
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"fuzz: {len(files)} files in {seconds:.0f}s ({len(HOSTILE)} hostile, {args.mutations} mutations)")
    for outcome, count in sorted(outcomes.items(), key=lambda item: -item[1]):
        print(f"  {count:6d}  {outcome}")
    print(f"crashes: {len(crashes)}; slowest file: {slowest[0]} {slowest[1]:.1f}s (budget {args.budget:g}s)")
    print(f"peak RSS: service {own:.0f} MB, largest worker {workers:.0f} MB")
    for name, error in crashes[:20]:
        print(f"  CRASH {name}: {error}")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
