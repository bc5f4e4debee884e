"""Static checks of deploy/observability/ (dashboard, Prometheus config, alert rules) and of the
Prometheus and Grafana services of docker-compose.yml. No Prometheus or Grafana needed, except for
the promtool checks, which run where promtool is installed (`make setup` installs it).

What they catch: a query naming a metric no service serves (docs/metrics.md is the contract), a
rate() over a gauge, a panel on another datasource than the provisioned one, a scrape target on
the wrong port, an alert without a runbook entry, a compose mount of a file that is not there.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
OBSERVABILITY = REPO_ROOT / "deploy" / "observability"
PROMETHEUS_CONFIG = OBSERVABILITY / "prometheus" / "prometheus.yml"
ALERT_RULES = OBSERVABILITY / "prometheus" / "alerts.yml"
ALERT_TESTS = Path(__file__).with_name("alerts_test.yml")
DASHBOARD = OBSERVABILITY / "grafana" / "dashboards" / "skuflow.json"
DATASOURCES = OBSERVABILITY / "grafana" / "provisioning" / "datasources" / "prometheus.yml"
DASHBOARD_PROVIDERS = OBSERVABILITY / "grafana" / "provisioning" / "dashboards" / "skuflow.yml"
README = OBSERVABILITY / "README.md"
METRICS_DOC = REPO_ROOT / "docs" / "metrics.md"
COMPOSE_FILE = REPO_ROOT / "docker-compose.yml"

SERVICES = {"gateway": 8000, "evaluator": 8001, "parser": 8002, "classifier": 8003, "extractor": 8004,
            "binder": 8005, "collab": 8006, "output": 8007}
# What Prometheus itself and prometheus_client's default collectors serve on every target.
DEFAULT_METRIC = re.compile(r"^(up|process_\w+|python_\w+)$")
# The figures issue 43 asks the dashboard to show.
DASHBOARD_METRICS = {
    "skuflow_jobs_in_flight", "skuflow_pages_processed_total", "skuflow_page_latency_seconds",
    "skuflow_consumer_lag", "skuflow_dlq_depth", "skuflow_review_backlog", "skuflow_review_sla_breaches_total",
    "llm_cost_usd_daily", "skuflow_parser_worker_rss_bytes", "process_resident_memory_bytes",
}
REQUIRED_ALERTS = {"SkuflowJobsStuck", "SkuflowConsumerLagHigh", "SkuflowDLQGrowing", "SkuflowErrorRateHigh",
                   "SkuflowStorageLow", "SkuflowStorageCritical"}
SEVERITIES = {"info", "warning", "critical"}

KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless",
            "offset", "inf", "nan"}
COUNTER_FUNCTIONS = ("rate", "irate", "increase", "resets")
GAUGE_FUNCTIONS = ("delta", "idelta", "deriv", "predict_linear", "min_over_time", "max_over_time", "avg_over_time")
HISTOGRAM_PARTS = ("_bucket", "_sum", "_count")


# --- PromQL, read just far enough to name the metrics an expression uses ---------------------------

def _strip(expr: str) -> str:
    """The expression without strings, label matchers, ranges and label lists (by/on/...)."""
    expr = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    expr = re.sub(r"\{[^}]*\}", "", expr)
    expr = re.sub(r"\[[^\]]*\]", "", expr)
    return re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", expr)


def metric_names(expr: str) -> set[str]:
    """Identifiers not called like a function and not a keyword: the metric names."""
    found = re.findall(r"(?<![\w:.$])([a-zA-Z_:][\w:]*)\b(?!\s*\()", _strip(expr))
    return {name for name in found if name.lower() not in KEYWORDS}


def metrics_under(functions: tuple[str, ...], expr: str) -> set[str]:
    """Metrics passed straight to one of ``functions``, e.g. rate(x[5m]) -> x."""
    pattern = rf"\b(?:{'|'.join(functions)})\s*\(\s*([a-zA-Z_:][\w:]*)"
    return set(re.findall(pattern, _strip(expr)))


def test_metric_names_reads_promql():
    expr = ('histogram_quantile(0.95, sum by (le, job) (rate(skuflow_handler_seconds_bucket{topic=~"a|b"}[5m])))'
            ' / on (job) group_left sum(up offset 5m) and label_replace(foo:bar, "x", "$1", "job", "(.*)")'
            ' > bool 1e3')
    assert metric_names(expr) == {"skuflow_handler_seconds_bucket", "up", "foo:bar"}
    assert metrics_under(COUNTER_FUNCTIONS, expr) == {"skuflow_handler_seconds_bucket"}
    assert metric_names("sum(rate(x_total[$__rate_interval])) by (stage)") == {"x_total"}


# --- the contract: docs/metrics.md ----------------------------------------------------------------

def documented_metrics() -> dict[str, str]:
    """Name -> type of every row of the metrics table (the rows with a type column)."""
    rows = re.findall(r"^\| `([a-z_:][a-z0-9_:]*)` \| (counter|gauge|histogram|summary) \|",
                      METRICS_DOC.read_text(encoding="utf-8"), re.MULTILINE)
    return dict(rows)


def metric_type(name: str, documented: dict[str, str]) -> str | None:
    """The type a series name stands for: a histogram's parts are 'histogram' (None: unknown)."""
    if name in documented:
        return documented[name]
    for part in HISTOGRAM_PARTS:
        base = name.removesuffix(part)
        if base != name and documented.get(base) in ("histogram", "summary"):
            return "histogram"
    if DEFAULT_METRIC.match(name):
        return "default"
    return None


@pytest.fixture(scope="module")
def documented() -> dict[str, str]:
    table = documented_metrics()
    assert {"skuflow_consumer_lag", "skuflow_page_latency_seconds"} <= set(table), "docs/metrics.md not read"
    return table


# --- where the queries are ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def dashboard() -> dict:
    return json.loads(DASHBOARD.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def rules() -> list[dict]:
    groups = yaml.safe_load(ALERT_RULES.read_text(encoding="utf-8"))["groups"]
    return [rule for group in groups for rule in group["rules"]]


def _panels(dashboard: dict) -> list[dict]:
    """Every panel, rows' nested panels included, rows themselves not (they hold no query)."""
    flat = []
    for panel in dashboard["panels"]:
        flat.extend(panel.get("panels", []))
        if panel["type"] != "row":
            flat.append(panel)
    return flat


def _queries(dashboard: dict, rules: list[dict]) -> list[tuple[str, str]]:
    """(where, expr) of every PromQL expression of the dashboard and the rules."""
    queries = [(f"panel {p['title']!r}", t["expr"]) for p in _panels(dashboard) for t in p["targets"]]
    return queries + [(f"rule {r['alert']}", r["expr"]) for r in rules]


def test_every_query_uses_documented_metrics(dashboard, rules, documented):
    for where, expr in _queries(dashboard, rules):
        names = metric_names(expr)
        assert names, f"{where}: no metric found in {expr!r}"
        unknown = {n for n in names if metric_type(n, documented) is None}
        assert not unknown, f"{where}: {sorted(unknown)} not in docs/metrics.md"


def test_functions_fit_the_metric_types(dashboard, rules, documented):
    for where, expr in _queries(dashboard, rules):
        for name in metrics_under(COUNTER_FUNCTIONS, expr):
            assert metric_type(name, documented) in ("counter", "histogram"), f"{where}: rate of gauge {name}"
        for name in metrics_under(GAUGE_FUNCTIONS, expr):
            assert metric_type(name, documented) in ("gauge", "default"), f"{where}: {name} is not a gauge"
        if any(name.endswith("_bucket") for name in metric_names(expr)):
            # buckets summed without their `le` label are one meaningless number
            assert re.search(r"by \([^)]*\ble\b", expr), f"{where}: buckets not kept apart by le"


# --- the dashboard --------------------------------------------------------------------------------

def test_dashboard_is_provisionable(dashboard):
    uid = yaml.safe_load(DATASOURCES.read_text(encoding="utf-8"))["datasources"][0]["uid"]
    assert uid == "skuflow-prometheus"
    assert dashboard["uid"] and dashboard["title"] and isinstance(dashboard["schemaVersion"], int)
    assert "id" not in dashboard or dashboard["id"] is None, "an exported id clashes on provisioning"
    panels = _panels(dashboard)
    ids = [p["id"] for p in dashboard["panels"]]
    ids += [p["id"] for row in dashboard["panels"] for p in row.get("panels", [])]
    assert len(ids) == len(set(ids)), "panel ids must be unique"
    for panel in panels:
        title = panel["title"]
        assert panel["datasource"] == {"type": "prometheus", "uid": uid}, f"{title}: datasource"
        assert panel["targets"], f"{title}: no query"
        ref_ids = [t["refId"] for t in panel["targets"]]
        assert len(ref_ids) == len(set(ref_ids)), f"{title}: duplicate refId"
        for target in panel["targets"]:
            assert target.get("datasource", panel["datasource"]) == panel["datasource"], f"{title}: target datasource"
            assert target["expr"].strip(), f"{title}: empty query"
        grid = panel["gridPos"]
        assert grid["x"] >= 0 and grid["x"] + grid["w"] <= 24 and grid["h"] > 0, f"{title}: off the grid"


def test_dashboard_shows_what_issue_43_asks(dashboard, documented):
    shown = set().union(*(metric_names(t["expr"]) for p in _panels(dashboard) for t in p["targets"]))
    shown |= {n.removesuffix(part) for n in shown for part in HISTOGRAM_PARTS if n.endswith(part)}
    assert shown >= DASHBOARD_METRICS, f"missing from the dashboard: {sorted(DASHBOARD_METRICS - shown)}"
    quantiles = " ".join(t["expr"] for p in _panels(dashboard) for t in p["targets"]
                         if "skuflow_page_latency_seconds_bucket" in t["expr"])
    assert "histogram_quantile(0.5," in quantiles and "histogram_quantile(0.95," in quantiles


def test_grafana_provisioning_points_at_the_files():
    provider = yaml.safe_load(DASHBOARD_PROVIDERS.read_text(encoding="utf-8"))["providers"][0]
    grafana = yaml.safe_load(COMPOSE_FILE.read_text(encoding="utf-8"))["services"]["grafana"]
    mounts = dict(_bind_mounts(grafana))
    assert mounts[provider["options"]["path"]] == DASHBOARD.parent
    assert mounts["/etc/grafana/provisioning"] == DATASOURCES.parent.parent
    datasource = yaml.safe_load(DATASOURCES.read_text(encoding="utf-8"))["datasources"][0]
    assert datasource["url"] == "http://prometheus:9090"


# --- Prometheus config and rules ------------------------------------------------------------------

def test_prometheus_scrapes_every_service():
    config = yaml.safe_load(PROMETHEUS_CONFIG.read_text(encoding="utf-8"))
    jobs = {job["job_name"]: [t for sc in job["static_configs"] for t in sc["targets"]]
            for job in config["scrape_configs"]}
    assert jobs == {name: [f"{name}:{port}"] for name, port in SERVICES.items()}
    compose = yaml.safe_load(COMPOSE_FILE.read_text(encoding="utf-8"))["services"]
    for name, port in SERVICES.items():
        assert str(compose[name]["environment"]["SKUFLOW_HTTP_PORT"]) == str(port)
    for rule_file in config["rule_files"]:
        assert (PROMETHEUS_CONFIG.parent / rule_file).is_file(), rule_file


def test_alert_rules(rules):
    names = {r["alert"] for r in rules}
    assert names >= REQUIRED_ALERTS, f"missing alerts: {sorted(REQUIRED_ALERTS - names)}"
    anchors = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-")
               for h in re.findall(r"^#+ (.+)$", README.read_text(encoding="utf-8"), re.MULTILINE)}
    for rule in rules:
        assert rule["labels"]["severity"] in SEVERITIES, rule["alert"]
        assert rule["annotations"]["summary"], rule["alert"]
        runbook = rule["annotations"]["runbook"]
        path, _, anchor = runbook.partition("#")
        assert REPO_ROOT / path == README and anchor in anchors, f"{rule['alert']}: no README section {runbook}"
    # runbook scenario 4 in free-space terms: > 75% used warns, > 85% is urgent
    by_name = {r["alert"]: r for r in rules}
    assert re.search(r"skuflow_storage_free_ratio\) < 0\.25$", by_name["SkuflowStorageLow"]["expr"].strip())
    assert re.search(r"skuflow_storage_free_ratio\) < 0\.15$", by_name["SkuflowStorageCritical"]["expr"].strip())


# --- docker-compose -------------------------------------------------------------------------------

def _bind_mounts(service: dict) -> list[tuple[str, Path]]:
    """(container path, host path) of each ./ mount (named volumes are not files)."""
    mounts = []
    for volume in service.get("volumes", []):
        source, target = str(volume).split(":")[:2]
        if source.startswith("."):
            mounts.append((target, (REPO_ROOT / source).resolve()))
    return mounts


def test_compose_mounts_files_that_exist():
    services = yaml.safe_load(COMPOSE_FILE.read_text(encoding="utf-8"))["services"]
    for name, service in services.items():
        for target, source in _bind_mounts(service):
            assert source.exists(), f"{name} mounts {source} at {target}: no such file"
    prometheus = services["prometheus"]
    mounts = dict(_bind_mounts(prometheus))
    config_path = next(a.split("=", 1)[1] for a in prometheus["command"] if a.startswith("--config.file="))
    assert mounts[config_path] == PROMETHEUS_CONFIG
    # rule_files are relative to the config: the rules must sit beside it in the container too
    assert mounts[str(Path(config_path).parent / "alerts.yml")] == ALERT_RULES
    grafana = services["grafana"]
    assert grafana["environment"]["GF_AUTH_ANONYMOUS_ORG_ROLE"] == "Viewer"
    assert all(str(p).startswith("127.0.0.1:") for s in (prometheus, grafana) for p in s["ports"]), \
        "anonymous dashboards and an unauthenticated Prometheus stay on loopback"


# --- promtool -------------------------------------------------------------------------------------

PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(
    PROMTOOL is None, reason="promtool is not installed (`make setup` installs Debian's prometheus package)")


def _promtool(*args: str) -> None:
    done = subprocess.run([PROMTOOL, *args], capture_output=True, text=True, timeout=120, cwd=REPO_ROOT)
    assert done.returncode == 0, f"promtool {' '.join(args)}:\n{done.stdout}{done.stderr}"


@needs_promtool
def test_promtool_checks_config_and_rules():
    _promtool("check", "config", str(PROMETHEUS_CONFIG))
    _promtool("check", "rules", str(ALERT_RULES))


@needs_promtool
def test_promtool_alert_unit_tests():
    """Each alert fires on the series it is meant for and not just short of its threshold."""
    _promtool("test", "rules", str(ALERT_TESTS))


# --- scripts/observe: the local configuration -----------------------------------------------------

def test_local_config_points_every_job_at_its_local_service(tmp_path):
    spec = importlib.util.spec_from_file_location("skuflow_observe", OBSERVABILITY / "observe.py")
    observe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(observe)
    local_config, local_targets = observe.local_config, observe.local_targets

    status = "\n".join(f"{name:<11} ready    http://127.0.0.1:{port + 100}  log .run/services/{name}.log"
                       for name, port in SERVICES.items())
    compose = yaml.safe_load(PROMETHEUS_CONFIG.read_text(encoding="utf-8"))
    config = local_config(compose, local_targets(status), ALERT_RULES)
    jobs = {job["job_name"]: job["static_configs"] for job in config["scrape_configs"]}
    assert jobs == {name: [{"targets": [f"127.0.0.1:{port + 100}"]}] for name, port in SERVICES.items()}
    assert config["rule_files"] == [str(ALERT_RULES)]
    if PROMTOOL:  # the written file is a valid configuration whose rules are found
        (tmp_path / "prometheus.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
        _promtool("check", "config", str(tmp_path / "prometheus.yml"))

    with pytest.raises(SystemExit, match="does not list binder"):
        local_config(compose, local_targets(status.replace("binder ", "nobody ")), ALERT_RULES)
