"""Prometheus against the locally running services (`make up`), for a look without Docker.

    scripts/observe start        write .run/observe/prometheus.yml and start Debian's Prometheus on it
    scripts/observe screenshot   the graph page of a few dashboard queries, the alerts and the
                                 targets pages, into docs/screenshots/ (headless Chromium)
    scripts/observe status       whether it runs, and where
    scripts/observe stop         stop it (the pid it recorded, nothing else)

The local configuration is prometheus/prometheus.yml with each job's target replaced by the
address `skuflow-services status` prints for that service, so the jobs, labels and alert rules
are the ones of docker-compose. Grafana is packaged by none of the registries this project
installs from, so the dashboard's queries are shown in Prometheus's own UI. Environment:
OBSERVE_PORT (default 9090), SKUFLOW_RUN_DIR (default .run).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
CONFIG = Path(__file__).with_name("prometheus") / "prometheus.yml"
RULES = CONFIG.with_name("alerts.yml")
RUN_DIR = Path(os.environ.get("SKUFLOW_RUN_DIR", REPO_ROOT / ".run")) / "observe"
PORT = int(os.environ.get("OBSERVE_PORT", "9090"))
URL = f"http://127.0.0.1:{PORT}"
PROMETHEUS = "/usr/bin/prometheus"
SCREENSHOTS = REPO_ROOT / "docs" / "screenshots"
# Faster than the compose file's 15 s so a short local run already draws a rate.
LOCAL_SCRAPE_INTERVAL = "5s"

# (file name, panel of the dashboard, PromQL as the dashboard has it with a fixed range)
QUERIES = [
    ("pages-per-stage", "sum by (stage) (rate(skuflow_pages_processed_total[1m]))"),
    ("page-latency-p95", "histogram_quantile(0.95, sum by (le) (rate(skuflow_page_latency_seconds_bucket[1m])))"),
    ("consumer-lag", "max by (group) (skuflow_consumer_lag)"),
    ("handler-p95", "histogram_quantile(0.95, sum by (le, job, topic) (rate(skuflow_handler_seconds_bucket[1m])))"),
    ("service-rss", "max by (job, instance) (process_resident_memory_bytes)"),
]


def local_targets(status: str) -> dict[str, str]:
    """service -> host:port from the lines `skuflow-services status` prints."""
    return dict(re.findall(r"^(\w+)\s+\w+\s+https?://([\w.\-]+:\d+)", status, re.MULTILINE))


def local_config(compose_config: dict, targets: dict[str, str], rules: Path) -> dict:
    """The compose configuration with every job pointed at its local address."""
    missing = {job["job_name"] for job in compose_config["scrape_configs"]} - set(targets)
    if missing:
        raise SystemExit(f"skuflow-services status does not list {', '.join(sorted(missing))}")
    jobs = [{**job, "static_configs": [{"targets": [targets[job["job_name"]]]}]}
            for job in compose_config["scrape_configs"]]
    timing = {"scrape_interval": LOCAL_SCRAPE_INTERVAL, "evaluation_interval": LOCAL_SCRAPE_INTERVAL}
    return {**compose_config, "global": {**compose_config["global"], **timing},
            "rule_files": [str(rules)], "scrape_configs": jobs}


def _pid() -> int | None:
    try:
        pid = int((RUN_DIR / "prometheus.pid").read_text())
        os.kill(pid, 0)
    except (FileNotFoundError, ValueError, ProcessLookupError):
        return None
    return pid


def _ready() -> bool:
    try:
        with urllib.request.urlopen(f"{URL}/-/ready", timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


def start() -> None:
    if _pid():
        print(f"already running: {URL}")
        return
    if not Path(PROMETHEUS).exists():
        raise SystemExit("no Prometheus: `make setup` installs Debian's prometheus package")
    status = subprocess.run([str(REPO_ROOT / ".venv" / "bin" / "skuflow-services"), "status"], check=True,
                            capture_output=True, text=True, cwd=REPO_ROOT).stdout
    config = local_config(yaml.safe_load(CONFIG.read_text(encoding="utf-8")), local_targets(status), RULES)
    RUN_DIR.mkdir(parents=True, exist_ok=True)
    (RUN_DIR / "prometheus.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    with (RUN_DIR / "prometheus.log").open("ab") as log:
        process = subprocess.Popen(
            [PROMETHEUS, f"--config.file={RUN_DIR / 'prometheus.yml'}", f"--storage.tsdb.path={RUN_DIR / 'data'}",
             "--storage.tsdb.retention.time=1d", f"--web.listen-address=127.0.0.1:{PORT}"],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    (RUN_DIR / "prometheus.pid").write_text(str(process.pid))
    deadline = time.monotonic() + 30
    while not _ready():
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"Prometheus did not start; see {RUN_DIR / 'prometheus.log'}")
        time.sleep(0.5)
    print(f"Prometheus on {URL}, scraping {len(config['scrape_configs'])} services (config {RUN_DIR}/prometheus.yml)")


def stop() -> None:
    pid = _pid()
    if pid is None:
        print("not running")
        return
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 20
    while _pid() and time.monotonic() < deadline:
        time.sleep(0.2)
    if _pid():
        os.kill(pid, signal.SIGKILL)
    (RUN_DIR / "prometheus.pid").unlink(missing_ok=True)
    print("stopped")


def screenshot() -> None:
    """Debian builds Prometheus without the React UI: its pages are the classic ones."""
    from playwright.sync_api import sync_playwright

    if not _ready():
        raise SystemExit("Prometheus is not running: scripts/observe start")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        for name, expr in QUERIES:
            query = urllib.parse.urlencode({"g0.expr": expr, "g0.tab": "0", "g0.range_input": "15m"})
            page.goto(f"{URL}/classic/graph?{query}", wait_until="networkidle")
            page.wait_for_timeout(1500)  # the graph draws after the query returns
            page.screenshot(path=SCREENSHOTS / f"prometheus-{name}.png", full_page=True)
        for name in ("alerts", "targets"):
            page.goto(f"{URL}/classic/{name}", wait_until="networkidle")
            page.screenshot(path=SCREENSHOTS / f"prometheus-{name}.png", full_page=True)
        browser.close()
    print(f"screenshots in {SCREENSHOTS}/prometheus-*.png")


def main(argv: list[str]) -> None:
    commands = {"start": start, "stop": stop, "screenshot": screenshot,
                "status": lambda: print(f"running on {URL}" if _pid() else "not running")}
    if len(argv) != 1 or argv[0] not in commands:
        raise SystemExit(f"usage: scripts/observe {'|'.join(commands)}")
    commands[argv[0]]()


if __name__ == "__main__":
    main(sys.argv[1:])
