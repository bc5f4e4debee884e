"""``make chaos``: concurrent jobs while a driver breaks the stack, then a count of what was lost.

The driver kills random services (-9, restarted a moment later), restarts the broker, restarts
Postgres (down for 20–60 s), and SIGSTOPs a service past its Kafka session timeout. Nobody
intervenes: no DLQ replay, no restart by hand. The expected SKUs of each job come from running the
same PDF in-process; the delivered ones from the ``sku.delivered`` topic, as an importer following
the README reads it (dedupe on ``delivery_key``).

    python -m tests.chaos.run --jobs 50 --postgres-restarts 2 --broker-restarts 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg
from aiokafka import AIOKafkaConsumer

from skuflow_cli.catalog import generate_catalog
from skuflow_cli.pipeline import run_pipeline
from skuflow_contracts.topics import SKU_DELIVERED
from skuflow_platform.storage import LocalStorage
from tests.e2e.stack import REPO, Pipeline, running_stack

INFRA = ["bash", str(REPO / "scripts" / "infra")]
ADMIN_DSN = "postgresql://skuflow:skuflow@127.0.0.1:5432/skuflow"
KILLABLE = ["evaluator", "parser", "classifier", "extractor", "binder", "collab", "output", "gateway"]
TERMINAL_USER_STATUSES = {"completed", "partial_success", "failed", "needs_manual"}


@dataclass
class Plan:
    jobs: int = 50
    pages: int = 3
    kills: int = 6
    postgres_restarts: int = 2
    postgres_down: tuple[float, float] = (20, 60)
    broker_restarts: int = 2
    broker_down: tuple[float, float] = (5, 20)
    sigstops: int = 1
    sigstop_seconds: float = 15  # past aiokafka's 10 s session timeout
    seed: int = 20261123
    timeout: float = 1200


@dataclass
class Expected:
    job_id: str
    pdf: Path
    pages: int
    sku_ids: set[str]


@dataclass
class Delivered:
    keys_by_event: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    sku_ids_by_job: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))


def log(message: str) -> None:
    print(f"chaos: {message}", file=sys.stderr, flush=True)


def fresh_database(name: str) -> str:
    with psycopg.connect(ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"postgresql+psycopg://skuflow:skuflow@127.0.0.1:5432/{name}"


def catalogs(plan: Plan, workdir: Path) -> list[tuple[Path, set[str]]]:
    """Each catalog with the valid SKU ids the engine finds in it in-process (the no-chaos answer)."""
    made = []
    for n in range(plan.jobs):
        pdf = workdir / f"catalog-{n:03d}.pdf"
        generate_catalog(pdf, pages=plan.pages, seed=plan.seed + n)
        with tempfile.TemporaryDirectory() as scratch:
            document = run_pipeline(pdf.read_bytes(), LocalStorage(Path(scratch)))
        # a page waiting for a person delivers nothing until reviewed (INV-04): nobody reviews here
        made.append((pdf, {s.sku_id for p in document.pages if not p.needs_review
                           for s in p.skus if s.validity == "valid"}))
    return made


def upload_all(pipeline: Pipeline, made: list[tuple[Path, set[str]]], plan: Plan) -> list[Expected]:
    def one(item: tuple[Path, set[str]]) -> Expected:
        pdf, sku_ids = item
        deadline = time.monotonic() + plan.timeout
        while True:
            try:
                job_id = pipeline.upload(pdf, merchant="merchant-chaos")
                return Expected(job_id, pdf, plan.pages, sku_ids)
            except (AssertionError, httpx.HTTPError):  # 503 while Postgres is down: the client retries
                if time.monotonic() > deadline:
                    raise
                time.sleep(2)

    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(one, made))


def drive(pipeline: Pipeline, plan: Plan, stop: threading.Event) -> list[str]:
    """The disruptions, spread over the run in a random order; returns what was done."""
    rng = random.Random(plan.seed)
    steps = (["kill"] * plan.kills + ["postgres"] * plan.postgres_restarts + ["broker"] * plan.broker_restarts
             + ["sigstop"] * plan.sigstops)
    rng.shuffle(steps)
    done = []
    sup = pipeline.supervisor
    for step in steps:
        if stop.wait(rng.uniform(2, 6)):
            break
        if step == "kill":
            name = rng.choice(KILLABLE)
            pid = sup.pid(name)
            if pid:
                sup.stop(name, signal.SIGKILL)
                time.sleep(rng.uniform(1, 3))
            sup.start(name)
            done.append(f"kill -9 {name}")
        elif step == "postgres":
            done.append(f"postgres down {outage('pg', rng.uniform(*plan.postgres_down)):.0f}s")
        elif step == "broker":
            done.append(f"broker down {outage('kafka', rng.uniform(*plan.broker_down)):.0f}s")
        else:
            name = rng.choice(KILLABLE)
            pid = sup.pid(name)
            if pid:
                signal_group(pid, signal.SIGSTOP)
                time.sleep(plan.sigstop_seconds)
                signal_group(pid, signal.SIGCONT)
                done.append(f"SIGSTOP {name} {plan.sigstop_seconds:g}s")
        log(done[-1] if done else step)
    return done


def outage(part: str, seconds: float) -> float:
    """Stop Postgres ('pg') or Kafka ('kafka') for ``seconds``, then start it again."""
    subprocess.run([*INFRA, f"{part}-stop"], check=True, capture_output=True)
    time.sleep(seconds)
    subprocess.run([*INFRA, f"{part}-start"], check=True, capture_output=True)
    return seconds


def signal_group(pid: int, sig: int) -> None:
    import os

    os.killpg(os.getpgid(pid), sig)


async def read_deliveries(bootstrap: str, delivered: Delivered, stop: threading.Event) -> None:
    """A downstream importer: survives the broker restarts (aiokafka reconnects by itself)."""
    consumer = AIOKafkaConsumer(SKU_DELIVERED.name, bootstrap_servers=bootstrap, group_id="chaos-importer",
                                auto_offset_reset="earliest", enable_auto_commit=True)
    await consumer.start()
    try:
        while not stop.is_set():
            batch = await consumer.getmany(timeout_ms=500)
            for records in batch.values():
                for record in records:
                    event = json.loads(record.value)
                    payload = event["payload"]
                    delivered.keys_by_event[payload["delivery_key"]].add(event["event_id"])
                    delivered.sku_ids_by_job[event["job_id"]].add(payload["sku"]["sku_id"])
    finally:
        await consumer.stop()


def wait_all(pipeline: Pipeline, expected: list[Expected], timeout: float) -> dict[str, dict]:
    deadline = time.monotonic() + timeout
    finished: dict[str, dict] = {}
    while time.monotonic() < deadline and len(finished) < len(expected):
        for job in expected:
            if job.job_id in finished:
                continue
            try:
                state = pipeline.job(job.job_id, merchant="merchant-chaos")
            except (httpx.HTTPError, ValueError):
                continue
            if state.get("user_status") in TERMINAL_USER_STATUSES and (
                    state.get("result_available") or state["user_status"] == "failed"):
                finished[job.job_id] = state
        time.sleep(2)
    return finished


def report(expected: list[Expected], finished: dict[str, dict], delivered: Delivered, pipeline: Pipeline,
           disruptions: list[str]) -> dict[str, int]:
    pages_lost = skus_missing = 0
    for job in expected:
        state = finished.get(job.job_id)
        if state is None:
            continue
        if state.get("result_available"):
            result = pipeline.result(job.job_id, merchant="merchant-chaos")
            read = {p["page"] for p in result["pages"] if p["status"] not in {"DEAD_LETTER", "AI_FAILED"}}
            pages_lost += job.pages - len(read)
        else:
            pages_lost += job.pages
        skus_missing += len(job.sku_ids - delivered.sku_ids_by_job.get(job.job_id, set()))
    figures = {
        "jobs": len(expected),
        "jobs hung": len(expected) - len(finished),
        "pages lost": pages_lost,
        "SKUs missing": skus_missing,
        "duplicate effects": sum(1 for events in delivered.keys_by_event.values() if len(events) > 1),
        "manual interventions": 0,  # by construction: the run never replays, restarts or repairs by hand
    }
    print(f"chaos: {len(disruptions)} disruptions: {'; '.join(disruptions)}")
    print(f"{'':2}{'figure':<22}{'value':>7}")
    for name, value in figures.items():
        print(f"{'':2}{name:<22}{value:>7}")
    return figures


def run_on(pipeline: Pipeline, plan: Plan, workdir: Path) -> dict[str, int]:
    """Upload ``plan.jobs`` catalogs to a running stack while the driver disrupts it; count the damage."""
    log(f"generating {plan.jobs} catalogs and their in-process results")
    made = catalogs(plan, workdir)
    stop = threading.Event()
    delivered = Delivered()
    reader = threading.Thread(target=lambda: asyncio.run(read_deliveries(pipeline.bootstrap, delivered, stop)))
    reader.start()
    disruptions: list[str] = []
    driver = threading.Thread(target=lambda: disruptions.extend(drive(pipeline, plan, stop)))
    try:
        driver.start()
        log(f"uploading {plan.jobs} jobs")
        expected = upload_all(pipeline, made, plan)
        driver.join()  # every disruption happens while jobs are in flight or queued
        log("disruptions over; waiting for every job to end")
        finished = wait_all(pipeline, expected, plan.timeout)
        time.sleep(5)  # the last deliveries reach the importer
    finally:
        stop.set()
        driver.join()
        reader.join()
    return report(expected, finished, delivered, pipeline, disruptions)


def run(plan: Plan, bootstrap: str = "127.0.0.1:9092") -> dict[str, int]:
    """A stack of its own (fresh database, clean broker), as ``make chaos`` runs it."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="skuflow-chaos-") as scratch:
        root = Path(scratch)
        env = {"SKUFLOW_STUCK_JOB_MINUTES": "10", "SKUFLOW_WATCHDOG_INTERVAL_SECONDS": "30",
               "SKUFLOW_UPLOADS_PER_MINUTE": "10000"}
        with running_stack(fresh_database("skuflow_chaos"), bootstrap, root, port_offset=20000, env=env) as pipeline:
            figures = run_on(pipeline, plan, root)
    log(f"done in {time.monotonic() - started:.0f}s")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=50)
    parser.add_argument("--postgres-restarts", type=int, default=2)
    parser.add_argument("--broker-restarts", type=int, default=2)
    parser.add_argument("--kills", type=int, default=6)
    args = parser.parse_args(argv)
    plan = Plan(jobs=args.jobs, postgres_restarts=args.postgres_restarts, broker_restarts=args.broker_restarts,
                kills=args.kills)
    figures = run(plan)
    return 0 if all(value == 0 for name, value in figures.items() if name != "jobs") else 1


if __name__ == "__main__":
    sys.exit(main())
