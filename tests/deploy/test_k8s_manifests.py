"""Static checks of the deployment files: deploy/k8s/, docker-compose.yml. No cluster needed.

They catch the drift that a cluster would only show at deploy time: a service without probes or
limits, a probe on the wrong port, a manifest missing from kustomization.yaml, a topic added to
skuflow_contracts without regenerating deploy/k8s/kafka-topics.yaml (gen_topics.py), or an
autoscaler watching a consumer group the service does not have.
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
K8S_DIR = REPO_ROOT / "deploy" / "k8s"
COMPOSE_FILE = REPO_ROOT / "docker-compose.yml"

try:
    from skuflow_contracts import topics as contract_topics
    from skuflow_contracts.topics import all_topic_names
    from skuflow_platform.consumer import consumer_group
    from skuflow_platform.settings import PlatformSettings
except ImportError:  # not installed in this environment: use the source tree
    sys.path[:0] = [str(REPO_ROOT / "libs" / lib / "src") for lib in ("contracts", "platform")]
    from skuflow_contracts import topics as contract_topics
    from skuflow_contracts.topics import all_topic_names
    from skuflow_platform.consumer import consumer_group
    from skuflow_platform.settings import PlatformSettings

SERVICES = {
    "gateway": 8000,
    "evaluator": 8001,
    "parser": 8002,
    "classifier": 8003,
    "extractor": 8004,
    "binder": 8005,
    "collab": 8006,
    "output": 8007,
}
# Scaled by KEDA on consumer lag (deploy/k8s/autoscaling.yaml); the CPU-bound two on CPU as well.
AUTOSCALED = ("parser", "classifier", "extractor", "binder")
CPU_SCALED = ("parser", "extractor")
CONFIGMAP = "skuflow-config"
SECRET = "skuflow-secrets"
SECRET_KEYS = {"SKUFLOW_DATABASE_URL", "SKUFLOW_JWT_SECRET", "SKUFLOW_LLM_STATE_DATABASE_URL"}
CONFIG_KEYS = {"SKUFLOW_KAFKA_BOOTSTRAP", "SKUFLOW_STORAGE_ROOT", "SKUFLOW_LOG_LEVEL", "SKUFLOW_HTTP_HOST",
               "SKUFLOW_FILE_LINKS_BASE_URL"}


def _yaml_files() -> list[Path]:
    return sorted(p for p in K8S_DIR.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def _load_docs() -> list[tuple[Path, dict]]:
    docs = []
    for path in _yaml_files():
        if path.name == "kustomization.yaml":
            continue
        with path.open(encoding="utf-8") as fh:
            for doc in yaml.safe_load_all(fh):
                if doc is not None:
                    docs.append((path, doc))
    return docs


@pytest.fixture(scope="module")
def docs() -> list[tuple[Path, dict]]:
    return _load_docs()


@pytest.fixture(scope="module")
def by_kind(docs) -> dict[str, list[dict]]:
    grouped: dict[str, list[dict]] = defaultdict(list)
    for _, doc in docs:
        grouped[doc["kind"]].append(doc)
    return grouped


def _one(by_kind, kind: str, name: str) -> dict:
    found = [d for d in by_kind[kind] if d["metadata"]["name"] == name]
    assert len(found) == 1, f"expected exactly one {kind} {name!r}, found {len(found)}"
    return found[0]


def _container(deployment: dict) -> dict:
    containers = deployment["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1, f"{deployment['metadata']['name']}: expected one container"
    return containers[0]


def _resolve_port(container: dict, port) -> int:
    """A probe or targetPort may name a container port; return its number."""
    if isinstance(port, int):
        return port
    named = {p.get("name"): p["containerPort"] for p in container.get("ports", [])}
    assert port in named, f"port name {port!r} is not declared by the container"
    return named[port]


def test_every_document_has_kind_and_name(docs):
    for path, doc in docs:
        assert doc.get("apiVersion") and doc.get("kind"), f"{path}: document without apiVersion/kind"
        assert doc.get("metadata", {}).get("name"), f"{path}: {doc['kind']} without metadata.name"
        if doc["kind"] != "Namespace":
            assert doc["metadata"].get("namespace") == "skuflow", f"{path}: {doc['kind']} outside skuflow"


def test_namespace_config_secret_and_storage(by_kind):
    _one(by_kind, "Namespace", "skuflow")

    config = _one(by_kind, "ConfigMap", CONFIGMAP)["data"]
    assert set(config) >= CONFIG_KEYS, f"ConfigMap lacks {CONFIG_KEYS - set(config)}"
    assert not SECRET_KEYS & set(config), "secrets must not be in the ConfigMap"
    assert config["SKUFLOW_STORAGE_ROOT"] == "/data/storage"
    # skuflow_platform binds 127.0.0.1 by default: probes and Services could not reach the pod.
    assert config["SKUFLOW_HTTP_HOST"] == "0.0.0.0"

    secret = _one(by_kind, "Secret", SECRET)
    values = secret.get("stringData") or secret.get("data") or {}
    assert set(values) >= SECRET_KEYS, f"Secret lacks {SECRET_KEYS - set(values)}"

    pvc = _one(by_kind, "PersistentVolumeClaim", "skuflow-storage")
    assert pvc["spec"]["accessModes"] == ["ReadWriteMany"]


def test_each_service_has_one_deployment_and_one_service(by_kind):
    deployments = {d["metadata"]["name"] for d in by_kind["Deployment"]}
    services = {s["metadata"]["name"] for s in by_kind["Service"]}
    assert deployments == set(SERVICES), f"Deployments: {sorted(deployments)}"
    assert services == set(SERVICES), f"Services: {sorted(services)}"
    for name in SERVICES:
        _one(by_kind, "Deployment", name)
        _one(by_kind, "Service", name)


@pytest.mark.parametrize("name", sorted(SERVICES))
def test_deployment(by_kind, name):
    port = SERVICES[name]
    deployment = _one(by_kind, "Deployment", name)
    template = deployment["spec"]["template"]
    container = _container(deployment)

    assert template["metadata"]["labels"].items() >= deployment["spec"]["selector"]["matchLabels"].items()
    assert container["image"] == f"skuflow/{name}:latest"
    assert container["command"] == ["python", "-m", f"skuflow_{name}"]
    assert [p["containerPort"] for p in container["ports"]] == [port]

    env = {e["name"]: e.get("value") for e in container.get("env", [])}
    assert env.get("SKUFLOW_HTTP_PORT") == str(port)
    env_from = container.get("envFrom", [])
    assert {"configMapRef": {"name": CONFIGMAP}} in env_from, f"{name}: no envFrom ConfigMap"
    assert {"secretRef": {"name": SECRET}} in env_from, f"{name}: no envFrom Secret"

    for probe_key, path in (("startupProbe", "/healthz"), ("livenessProbe", "/healthz"), ("readinessProbe", "/readyz")):
        probe = container.get(probe_key)
        assert probe, f"{name}: no {probe_key}"
        assert probe["httpGet"]["path"] == path
        assert _resolve_port(container, probe["httpGet"]["port"]) == port, f"{name}: {probe_key} port"

    # /healthz answers only once the service has started, which may wait out Postgres or Kafka for its
    # start-up patience: until then the liveness probe must not restart it (it would never start)
    startup = container["startupProbe"]
    assert startup["periodSeconds"] * startup["failureThreshold"] > _startup_patience(by_kind), f"{name}: startupProbe"

    resources = container.get("resources", {})
    for section in ("requests", "limits"):
        assert {"cpu", "memory"} <= set(resources.get(section, {})), f"{name}: resources.{section}"
    if name == "parser":  # its process and a page worker at its measured OCR peak (0.85 GiB), two while renewed
        assert _mebibytes(resources["limits"]["memory"]) >= 2 * 850 + 200, "parser: memory limit under OCR's peak"

    annotations = template["metadata"].get("annotations", {})
    assert annotations.get("prometheus.io/scrape") == "true"
    assert annotations.get("prometheus.io/port") == str(port)
    assert annotations.get("prometheus.io/path") == "/metrics"

    mounts = {m["name"]: m["mountPath"] for m in container.get("volumeMounts", [])}
    volumes = {v["name"]: v for v in template["spec"].get("volumes", [])}
    storage = [n for n, v in volumes.items()
               if v.get("persistentVolumeClaim", {}).get("claimName") == "skuflow-storage"]
    assert len(storage) == 1 and mounts.get(storage[0]) == "/data/storage", f"{name}: shared storage not mounted"


def _mebibytes(quantity: str) -> float:
    """A Kubernetes memory quantity ('512Mi', '2Gi') in MiB."""
    units = {"Ki": 1 / 1024, "Mi": 1, "Gi": 1024}
    return float(quantity[:-2]) * units[quantity[-2:]] if quantity[-2:] in units else float(quantity) / 2**20


def _startup_patience(by_kind) -> float:
    """How long a starting service waits for Postgres and Kafka: the ConfigMap's, else the default."""
    configured = _one(by_kind, "ConfigMap", CONFIGMAP)["data"].get("SKUFLOW_STARTUP_PATIENCE_SECONDS")
    return float(configured) if configured else PlatformSettings.model_fields["startup_patience_seconds"].default


def test_the_ingress_lets_through_every_upload_the_gateway_takes(by_kind):
    """A file at the gateway's cap comes in a larger multipart body: nginx must pass it, so the gateway,
    not nginx's 413 page, answers every size."""
    ingress = _one(by_kind, "Ingress", "gateway")
    body = ingress["metadata"]["annotations"]["nginx.ingress.kubernetes.io/proxy-body-size"]
    assert body.endswith("m")
    env = {e["name"]: e.get("value") for e in _container(_one(by_kind, "Deployment", "gateway"))["env"]}
    assert int(body[:-1]) > int(env["SKUFLOW_MAX_UPLOAD_MB"])


def test_links_name_the_address_clients_reach_the_gateway_at(by_kind):
    """Result and image links are signed gateway URLs: their base is the Ingress's host, not loopback."""
    ingress = _one(by_kind, "Ingress", "gateway")
    base = _one(by_kind, "ConfigMap", CONFIGMAP)["data"]["SKUFLOW_FILE_LINKS_BASE_URL"]
    assert urlsplit(base).hostname == ingress["spec"]["rules"][0]["host"]


@pytest.mark.parametrize("name", sorted(SERVICES))
def test_service_routes_to_the_deployment(by_kind, name):
    service = _one(by_kind, "Service", name)
    deployment = _one(by_kind, "Deployment", name)
    container = _container(deployment)
    assert service["spec"].get("type", "ClusterIP") == "ClusterIP"
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert pod_labels.items() >= service["spec"]["selector"].items(), f"{name}: selector matches no pod"
    (port,) = service["spec"]["ports"]
    assert port["port"] == SERVICES[name]
    assert _resolve_port(container, port.get("targetPort", port["port"])) == SERVICES[name]


def _subscribed_topics(service: str) -> set[str]:
    """The topics named in the list ``subscriptions()`` returns in the service's service.py: what
    the service really consumes (each in its own consumer group)."""
    source = REPO_ROOT / "services" / service / "src" / f"skuflow_{service}" / "service.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    (function,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "subscriptions"]
    (returned,) = [n.value for n in function.body if isinstance(n, ast.Return)]
    names = [e.elts[0].id for e in returned.elts if isinstance(e, ast.Tuple) and isinstance(e.elts[0], ast.Name)]
    return {getattr(contract_topics, name).name for name in names}


def test_subscribed_topics_reads_the_services():
    assert _subscribed_topics("parser") == {"skuflow.job.routed.v1", "skuflow.page.parse-requested.v1",
                                            "skuflow.job.cancelled.v1"}
    assert "skuflow.page.classified.v1" in _subscribed_topics("extractor")


def test_scaled_objects(by_kind):
    partitions = dict(all_topic_names())
    config = _one(by_kind, "ConfigMap", CONFIGMAP)["data"]
    scaled = {s["spec"]["scaleTargetRef"]["name"]: s for s in by_kind["ScaledObject"]}
    assert set(scaled) == set(AUTOSCALED)
    for name, obj in scaled.items():
        assert obj["apiVersion"] == "keda.sh/v1alpha1"
        target = obj["spec"]["scaleTargetRef"]
        assert target.get("kind", "Deployment") == "Deployment"
        _one(by_kind, "Deployment", target["name"])
        # A fixed replica count would fight the autoscaler on every `kubectl apply`.
        assert "replicas" not in _one(by_kind, "Deployment", name)["spec"], f"{name}: drop spec.replicas"

        triggers = obj["spec"]["triggers"]
        kafka = [t["metadata"] for t in triggers if t["type"] == "kafka"]
        assert kafka, f"{name}: no Kafka lag trigger"
        subscribed = _subscribed_topics(name)
        for trigger in kafka:
            assert trigger["bootstrapServers"] == config["SKUFLOW_KAFKA_BOOTSTRAP"]
            assert trigger["topic"] in subscribed, f"{name} does not consume {trigger['topic']}"
            # the services' own naming, so a renamed group fails here, not in the cluster
            assert trigger["consumerGroup"] == consumer_group(name, contract_topics.Topic(trigger["topic"]))
            assert int(trigger["lagThreshold"]) > 0
            # the services start a new group at the beginning of the log (consumer.py)
            assert trigger["offsetResetPolicy"] == "earliest"
            assert trigger.get("allowIdleConsumers", "false") == "false"
            # more replicas than partitions get no partition and sit idle
            assert 1 <= obj["spec"]["minReplicaCount"] <= obj["spec"]["maxReplicaCount"] <= partitions[trigger["topic"]]

        cpu = [t for t in triggers if t["type"] == "cpu"]
        if name in CPU_SCALED:
            assert cpu == [{"type": "cpu", "metricType": "Utilization", "metadata": {"value": "70"}}]
            resources = _container(_one(by_kind, "Deployment", name))["resources"]
            assert "cpu" in resources["requests"], f"{name}: a CPU target needs a CPU request"
        else:
            assert not cpu
        behavior = obj["spec"]["advanced"]["horizontalPodAutoscalerConfig"]["behavior"]
        # every scale event rebalances the group: shrink slowly
        assert behavior["scaleDown"]["stabilizationWindowSeconds"] >= 300


def test_no_hpa_beside_keda(by_kind):
    """KEDA makes the HPA of each ScaledObject; a second one on the same Deployment would fight it."""
    hpa_targets = {h["spec"]["scaleTargetRef"]["name"] for h in by_kind["HorizontalPodAutoscaler"]}
    assert not hpa_targets & set(AUTOSCALED)


def test_kafka_topics_match_contracts():
    with (K8S_DIR / "kafka-topics.yaml").open(encoding="utf-8") as fh:
        topics = [d for d in yaml.safe_load_all(fh) if d is not None]
    assert all(d["kind"] == "KafkaTopic" and d["apiVersion"] == "kafka.strimzi.io/v1beta2" for d in topics)

    declared = {d["spec"]["topicName"]: d["spec"]["partitions"] for d in topics}
    assert len(declared) == len(topics), "a topic is declared twice"
    expected = dict(all_topic_names())
    assert declared == expected, (
        "deploy/k8s/kafka-topics.yaml is out of date with skuflow_contracts.topics: "
        "run python deploy/k8s/gen_topics.py"
    )
    for d in topics:
        assert d["metadata"]["name"] == d["spec"]["topicName"].replace(".", "-")
        assert d["metadata"]["labels"]["strimzi.io/cluster"] == "skuflow-kafka"
        assert d["spec"]["replicas"] == 3


def test_kustomization_lists_every_file():
    kustomization = yaml.safe_load((K8S_DIR / "kustomization.yaml").read_text(encoding="utf-8"))
    listed = kustomization["resources"]
    assert len(listed) == len(set(listed)), "a resource is listed twice"
    on_disk = {p.relative_to(K8S_DIR).as_posix() for p in _yaml_files()} - {"kustomization.yaml"}
    assert set(listed) == on_disk, (
        f"not listed: {sorted(on_disk - set(listed))}; listed but missing: {sorted(set(listed) - on_disk)}"
    )
    assert {f"services/{name}.yaml" for name in SERVICES} <= on_disk


def test_docker_compose():
    compose = yaml.safe_load(COMPOSE_FILE.read_text(encoding="utf-8"))
    services = compose["services"]
    assert {"kafka", "postgres", *SERVICES} <= set(services)
    assert services["kafka"]["image"].startswith("apache/kafka:")
    assert services["postgres"]["image"].startswith("postgres:")
    for name, port in SERVICES.items():
        service = services[name]
        assert service["build"]["dockerfile"] == "deploy/docker/Dockerfile"
        assert service["build"]["args"]["SERVICE"] == name
        env = service["environment"]
        assert str(env["SKUFLOW_HTTP_PORT"]) == str(port)
        assert {"SKUFLOW_KAFKA_BOOTSTRAP", "SKUFLOW_DATABASE_URL", "SKUFLOW_STORAGE_ROOT"} <= set(env)
        assert env.get("SKUFLOW_HTTP_HOST") == "0.0.0.0", f"{name}: must listen beyond loopback"
        assert any(str(v).startswith("storage:/data/storage") for v in service["volumes"])
    assert "8000:8000" in services["gateway"]["ports"]
    assert "8006:8006" in services["collab"]["ports"]  # the workbench, as the README opens it
