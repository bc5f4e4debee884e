"""Every metric docs/metrics.md lists is served by the services that own it.

Each service is built in a process of its own (as it runs: one service, its own imports, its own
registry) and its /metrics read without starting it, so a metric defined only in another service's
code cannot be found by accident. The table is read from the document, so the document and the
code cannot drift apart.
"""

from __future__ import annotations

import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "metrics.md"
SERVICES = ("gateway", "evaluator", "parser", "classifier", "extractor", "binder", "collab", "output")
ROW = re.compile(r"^\| `(?P<name>[a-z_]+)` \| (?P<type>counter|gauge|histogram) \| [^|]+ \| (?P<owner>[^|]+) \|")
SCRAPE = """
import importlib, sys
from fastapi.testclient import TestClient
from skuflow_platform.runtime import build_app
definition = importlib.import_module(f"skuflow_{sys.argv[1]}.service").definition
sys.stdout.write(TestClient(build_app(definition)).get("/metrics").text)
"""


def documented() -> list[tuple[str, str, tuple[str, ...]]]:
    """(name, type, owning services) of every row of the table."""
    rows = []
    for line in DOC.read_text().splitlines():
        if match := ROW.match(line):
            owner = match["owner"].strip()
            owners = SERVICES if owner == "every" else tuple(o.strip() for o in owner.split(","))
            rows.append((match["name"], match["type"], owners))
    return rows


@pytest.fixture(scope="module")
def scrapes(tmp_path_factory) -> dict[str, str]:
    storage = tmp_path_factory.mktemp("storage")

    def scrape(service: str) -> str:
        done = subprocess.run([sys.executable, "-c", SCRAPE, service], capture_output=True, text=True, timeout=300,
                              env={"PATH": "/usr/bin:/bin", "SKUFLOW_STORAGE_ROOT": str(storage),
                                   "SKUFLOW_LOG_LEVEL": "WARNING"})
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip(SERVICES, pool.map(scrape, SERVICES), strict=True))


def test_the_table_names_every_owner_and_the_fixed_names():
    rows = documented()
    names = {name for name, _, _ in rows}
    assert len(rows) == len(names) >= 60
    assert {owner for _, _, owners in rows for owner in owners} == set(SERVICES)
    assert {"skuflow_jobs_in_flight", "skuflow_jobs_stuck", "skuflow_pages_processed_total",
            "skuflow_page_latency_seconds", "skuflow_consumer_lag", "skuflow_dlq_depth", "skuflow_review_backlog",
            "skuflow_review_sla_breaches_total", "llm_cost_usd_daily", "skuflow_parser_worker_rss_bytes",
            "process_resident_memory_bytes", "skuflow_reader_sku_confidence", "skuflow_storage_free_ratio",
            "skuflow_events_consumed_total", "skuflow_handler_seconds", "skuflow_dead_letters_total",
            "skuflow_outbox_pending"} <= names


def test_every_service_serves_the_metrics_it_owns(scrapes):
    missing = [f"{service}: {name} ({kind})" for name, kind, owners in documented() for service in owners
               if f"# TYPE {name} {kind}\n" not in scrapes[service]]
    assert not missing, "\n".join(missing)


def test_the_storage_gauge_is_read_at_scrape(scrapes):
    free = re.search(r"^skuflow_storage_free_ratio (\S+)$", scrapes["gateway"], re.MULTILINE)
    assert free and 0 < float(free[1]) <= 1
