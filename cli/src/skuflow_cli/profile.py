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
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from skuflow_cli.catalog import generate_catalog
from skuflow_cli.evaluation.golden import GoldenDocument
from skuflow_cli.evaluation.runner import run_via_services
from skuflow_cli.supervisor import SERVICES, Supervisor
from skuflow_platform.settings import PlatformSettings

RATE = 100  # samples per second
IDLE = ("Condition.wait", "_worker (concurrent", "select (selectors", "EpollSelector.select")
# what a sample was doing, by the first frame of its stack that matches (checked in this order); a
# handler is named by its function (the handlers are closures in each service's ``subscriptions``)
HANDLER = re.compile(r"^subscriptions\.<locals>\.(\w+) \(")
ACTIVITIES = (
    ("consumer (decode, inbox, transaction, logs, span)", re.compile(r"^EventConsumer\.process \(")),
    ("outbox relay", re.compile(r"^OutboxRelay\._run \(")),
    ("kafka client", re.compile(r"aiokafka/")),
    ("clocks (lag, watchdogs, metrics)", re.compile(r"^_every \(")),
    ("http requests", re.compile(r"^RequestResponseCycle\.run_asgi \(")),
    ("page workers", re.compile(r"skuflow_parser/workers\.py|multiprocessing/")),
    ("database driver (greenlet)", re.compile(r"sqlalchemy/|psycopg/")),
)


def _frames(stack: str) -> list[str]:
    return [re.sub(r":\d+\)", ")", frame) for frame in stack.split(";")]


def summarise(raw: Path) -> tuple[int, Counter, Counter]:
    """Samples not idle, and how many were in each activity (a handler by its name) and function."""
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
    return total, activities, own


def _activity(frames: list[str]) -> str:
    for frame in frames:
        if handler := HANDLER.match(frame):
            return f"handler {handler.group(1)}"
    for name, pattern in ACTIVITIES:
        if any(pattern.search(frame) for frame in frames):
            return name
    return "event loop and the rest"


def cpu_seconds(pid: int) -> float:
    """User and system CPU of a process and its children (the parser's page workers), from /proc."""
    def own(p: int) -> float:
        fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")

    kids = {int(k) for task in Path(f"/proc/{pid}/task").iterdir() for k in (task / "children").read_text().split()}
    return own(pid) + sum(own(k) for k in kids if Path(f"/proc/{k}").exists())


@dataclass(frozen=True)
class Profile:
    pages: int
    seconds: float  # wall time, upload to job completed
    cpu: dict[str, float]  # CPU seconds each service (with its child processes) used meanwhile
    raws: dict[str, Path]  # py-spy's stacks per service


def record(pages: int, gateway: str, out: Path) -> Profile:
    """Sample every running service while a ``pages``-page catalog goes through."""
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
        before = {name: cpu_seconds(pid) for name, pid in pids.items()}
        started = time.perf_counter()
        asyncio.run(run_via_services([document], gateway=gateway, secret=secret))
        seconds = time.perf_counter() - started
        cpu = {name: cpu_seconds(pid) - before[name] for name, pid in pids.items()}
        for sampler in samplers:
            sampler.send_signal(signal.SIGINT)  # py-spy writes what it has and exits
        for sampler in samplers:
            sampler.wait(timeout=60)
    print(f"profile: {pages} pages in {seconds:.1f}s ({pages / seconds:.2f} pages/s)", file=sys.stderr)
    return Profile(pages, seconds, cpu, raws)


def report(profile: Profile, title: str) -> str:
    """Each service's CPU (from /proc, which py-spy's sample counts overstate) split by the samples'
    shares of what it was doing."""
    pages, total = profile.pages, sum(profile.cpu.values())
    lines = [f"# {title}", "",
             f"A {pages}-page generated catalog, upload to job completed: {profile.seconds:.1f} s "
             f"({pages / profile.seconds:.2f} pages/s). CPU the eight services used meanwhile (/proc, user + "
             f"system, the parser's page workers included): {total:.1f} s, {1000 * total / pages:.0f} ms per page. "
             f"Each service's CPU is split by what py-spy's samples ({RATE} Hz, GIL holders) found it doing.", "",
             "| service | CPU s | ms/page |", "|---|---:|---:|"]
    lines += [f"| {name} | {cpu:.2f} | {1000 * cpu / pages:.0f} |" for name, cpu in profile.cpu.items()]
    for name, raw in profile.raws.items():
        if not raw.exists():
            continue
        samples, activities, own = summarise(raw)
        cpu = profile.cpu[name]
        lines += ["", f"## {name}: {cpu:.2f} s CPU ({1000 * cpu / pages:.0f} ms/page)", "",
                  "| doing | ms/page | share |", "|---|---:|---:|"]
        lines += [f"| {what} | {1000 * cpu * n / samples / pages:.1f} | {n / samples:.0%} |"
                  for what, n in activities.most_common(12)]
        lines += ["", "Own time, top functions: " + "; ".join(
            f"`{fn}` {n / samples:.0%}" for fn, n in own.most_common(6))]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skuflow_cli.profile", description=__doc__.splitlines()[0])
    parser.add_argument("--gateway", default="http://127.0.0.1:8000")
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--title", default="Where the services spend the CPU")
    parser.add_argument("--out", type=Path, required=True, help="Markdown summary to write")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="skuflow-profile-raw-") as tmp:
        profile = record(args.pages, args.gateway, Path(tmp))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(report(profile, args.title) + "\n", encoding="utf-8")
    print(f"profile: written {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
