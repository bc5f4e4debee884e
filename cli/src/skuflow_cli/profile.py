"""``python -m skuflow_cli.profile``: where the running services spend the CPU while a catalog goes through.

py-spy samples every service process (the parser with its worker processes) while one generated
catalog is uploaded and read; only samples holding the GIL count, so waiting is not work. Each
service's samples are then told by what they were doing: handling an event (by handler), the outbox
relay, Kafka fetching and protocol, HTTP, the database driver, the rest. The summary is Markdown
(docs/profiles/ keeps the ones the performance notes cite).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from skuflow_cli.catalog import generate_catalog
from skuflow_cli.evaluation.golden import GoldenDocument
from skuflow_cli.evaluation.runner import run_via_services
from skuflow_cli.supervisor import SERVICES, Supervisor
from skuflow_platform.settings import PlatformSettings

RATE = 100  # samples per second
IDLE = ("Condition.wait", "_worker (concurrent", "select (selectors", "EpollSelector.select")
# what a sample was doing, by the first frame of its stack that matches (checked in this order)
ACTIVITIES = (
    ("handler", re.compile(r"^run_handler \(")),
    ("consumer (decode, inbox, transaction)", re.compile(r"^EventConsumer\.process \(")),
    ("outbox relay", re.compile(r"^OutboxRelay\._run \(")),
    ("kafka client", re.compile(r"aiokafka/")),
    ("http", re.compile(r"uvicorn/|starlette/")),
    ("clocks (lag, watchdogs)", re.compile(r"^_every \(")),
    ("page workers", re.compile(r"skuflow_parser/workers\.py|multiprocessing/")),
    ("database driver", re.compile(r"sqlalchemy/|psycopg/")),
)


def _frames(stack: str) -> list[str]:
    return [re.sub(r":\d+\)", ")", frame) for frame in stack.split(";")]


def summarise(raw: Path) -> tuple[float, Counter, Counter]:
    """CPU seconds sampled, seconds per activity (a handler by its name) and per own-time function."""
    activities, own, total = Counter(), Counter(), 0
    for line in raw.read_text().splitlines():
        if not line.strip():
            continue
        stack, count = line.rsplit(" ", 1)
        frames, n = _frames(stack), int(count)
        if any(idle in frames[-1] for idle in IDLE):
            continue
        total += n
        own[frames[-1]] += n
        activities[_activity(frames)] += n
    return total / RATE, Counter({k: v / RATE for k, v in activities.items()}), \
        Counter({k: v / RATE for k, v in own.items()})


def _activity(frames: list[str]) -> str:
    for name, pattern in ACTIVITIES:
        for index, frame in enumerate(frames):
            if pattern.search(frame):
                if name == "handler" and index + 1 < len(frames):
                    return "handler " + frames[index + 1].split(" (")[0].removeprefix("subscriptions.<locals>.")
                return name
    return "other"


def record(pages: int, gateway: str, out: Path) -> dict[str, Path]:
    """Sample every running service while a ``pages``-page catalog goes through; raw stacks per service."""
    supervisor = Supervisor(Path(".run") / "services", env={})
    pids = {name: supervisor.pid(name) for name in SERVICES}
    missing = [name for name, pid in pids.items() if pid is None]
    if missing:
        raise SystemExit(f"not running: {', '.join(missing)} (start them with `make up`)")
    with tempfile.TemporaryDirectory(prefix="skuflow-profile-") as tmp:
        pdf = Path(tmp) / "catalog.pdf"
        generate_catalog(pdf, pages=pages, seed=50)
        document = GoldenDocument(pdf.stem, pdf, {"pages": []})
        secret = PlatformSettings().jwt_secret
        asyncio.run(run_via_services([document], gateway=gateway, secret=secret))  # warm: models, caches
        raws = {name: out / f"{name}.raw" for name in SERVICES}
        py_spy = str(Path(sys.executable).parent / "py-spy")
        samplers = [subprocess.Popen([py_spy, "record", "-p", str(pid), "-r", str(RATE), "--gil", "-f", "raw",
                                      "-o", str(raws[name]), *(["--subprocesses"] if name == "parser" else [])],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    for name, pid in pids.items()]
        time.sleep(1)
        started = time.perf_counter()
        asyncio.run(run_via_services([document], gateway=gateway, secret=secret))
        seconds = time.perf_counter() - started
        for sampler in samplers:
            sampler.send_signal(2)  # SIGINT: py-spy writes what it has and exits
        for sampler in samplers:
            sampler.wait(timeout=60)
    print(f"profile: {pages} pages in {seconds:.1f}s ({pages / seconds:.2f} pages/s)", file=sys.stderr)
    return raws


def report(raws: dict[str, Path], pages: int, title: str) -> str:
    lines = [f"# {title}", "", f"CPU seconds sampled per service (py-spy, GIL holders, {RATE} Hz) while a "
             f"{pages}-page generated catalog went through; ms per page in brackets.", ""]
    totals = {}
    for name, raw in raws.items():
        if not raw.exists():
            continue
        busy, activities, own = summarise(raw)
        totals[name] = busy
        lines += [f"## {name}: {busy:.1f} s ({1000 * busy / pages:.0f} ms/page)", "", "| doing | s | share |",
                  "|---|---:|---:|"]
        lines += [f"| {what} | {s:.2f} | {s / busy:.0%} |" for what, s in activities.most_common(10)]
        lines += ["", "Own time, top functions: " + "; ".join(
            f"`{fn}` {s / busy:.0%}" for fn, s in own.most_common(6)), ""]
    lines.insert(4, f"All services: {sum(totals.values()):.1f} s ({1000 * sum(totals.values()) / pages:.0f} "
                    "ms/page).\n")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skuflow_cli.profile", description=__doc__.splitlines()[0])
    parser.add_argument("--gateway", default="http://127.0.0.1:8000")
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--title", default="Where the services spend the CPU")
    parser.add_argument("--out", type=Path, required=True, help="Markdown summary to write")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="skuflow-profile-raw-") as tmp:
        raws = record(args.pages, args.gateway, Path(tmp))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(report(raws, args.pages, args.title) + "\n", encoding="utf-8")
    print(f"profile: written {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
