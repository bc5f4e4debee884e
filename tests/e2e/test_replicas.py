"""Scale-out: a second replica of parser and extractor joins their consumer groups and takes a share
of the partitions; killed (-9) mid-job, its partitions go back to the first replica on the rebalance,
which reads from the last committed offsets. Nothing may be lost (every page read, every SKU the
in-process run finds delivered) and nothing doubled (each delivery key delivered by one event; a
redelivery after the kill is answered from the inbox)."""

import asyncio
import dataclasses
import signal
import threading
import time

import pytest

from tests.chaos.run import (
    Delivered,
    Plan,
    catalogs,
    read_deliveries,
    report,
    signal_group,
    upload_all,
    wait_all,
)

pytestmark = pytest.mark.e2e

SCALED = ("parser", "extractor")
PLAN = Plan(jobs=6, pages=6, kills=0, postgres_restarts=0, broker_restarts=0, sigstops=0, timeout=300)


def _handled_by(log_path, job_ids: set[str]) -> int:
    """Events of ``job_ids`` the replica's log says it handled."""
    if not log_path.exists():
        return 0
    text = log_path.read_text(encoding="utf-8", errors="replace")
    return sum(1 for line in text.splitlines() if '"event handled"' in line and any(j in line for j in job_ids))


def test_a_replica_killed_mid_job_loses_and_doubles_nothing(pipeline, tmp_path):
    usual = pipeline.supervisor
    second = dataclasses.replace(usual, run_dir=tmp_path / "replicas", port_offset=usual.port_offset + 100)
    made = catalogs(PLAN, tmp_path)
    for name in SCALED:
        second.start(name)
    stop, delivered = threading.Event(), Delivered()
    reader = threading.Thread(target=lambda: asyncio.run(read_deliveries(pipeline.bootstrap, delivered, stop)))
    reader.start()
    try:
        second.wait_ready(list(SCALED))
        time.sleep(5)  # the groups rebalance onto two members before the jobs arrive
        expected = upload_all(pipeline, made, PLAN)
        job_ids = {job.job_id for job in expected}
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not all(_handled_by(second.log_file(n), job_ids) for n in SCALED):
            time.sleep(0.2)
        shares = {name: _handled_by(second.log_file(name), job_ids) for name in SCALED}
        assert all(shares.values()), f"the second replicas took no share of the work: {shares}"
        for name in SCALED:
            signal_group(second.pid(name), signal.SIGKILL)
        finished = wait_all(pipeline, expected, PLAN.timeout)
        time.sleep(5)  # the last deliveries reach the importer
    finally:
        stop.set()
        reader.join()
        for name in SCALED:
            second.stop(name)
    figures = report(expected, finished, delivered, pipeline, [f"kill -9 second {n}" for n in SCALED])
    assert {name: value for name, value in figures.items() if name != "jobs"} == {
        "jobs hung": 0, "pages lost": 0, "SKUs missing": 0, "duplicate effects": 0, "manual interventions": 0}
