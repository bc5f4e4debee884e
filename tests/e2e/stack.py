"""The eight services as real processes on the real Kafka and Postgres (end-to-end tests, make chaos).

``running_stack`` starts them from a clean broker (``scripts/infra reset-kafka``), the given
database and its own storage directory, so earlier runs or a running demo cannot leak into the
results; ``Pipeline`` is how a test talks to it.
"""

import asyncio
import contextlib
import dataclasses
import os
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

from skuflow_cli.supervisor import SERVICES, Supervisor
from skuflow_platform.auth import mint_token
from skuflow_platform.topic_reader import end_offsets, read_since

REPO = Path(__file__).resolve().parents[2]
SECRET = "e2e-secret-long-enough-for-hmac-sha256-signing"


@dataclass
class Pipeline:
    supervisor: Supervisor
    storage_root: Path
    database_url: str
    bootstrap: str

    @property
    def gateway(self) -> str:
        return f"http://127.0.0.1:{self.supervisor.port('gateway')}"

    @property
    def collab(self) -> str:
        return f"http://127.0.0.1:{self.supervisor.port('collab')}"

    @contextlib.contextmanager
    def restarted(self, names: tuple[str, ...], env: dict[str, str]) -> Iterator[None]:
        """Only ``names`` run with ``env`` added to their environment; the usual ones come back after."""
        usual = self.supervisor
        changed = dataclasses.replace(usual, env={**usual.env, **env})
        for name in names:
            usual.stop(name)
            changed.start(name)
        try:
            changed.wait_ready(list(names))
            yield
        finally:
            for name in names:
                changed.stop(name)
                usual.start(name)
            usual.wait_ready(list(names))

    def client(self, merchant: str = "merchant-a") -> httpx.Client:
        token = mint_token(user_id=f"user-{merchant}", merchant_id=merchant, secret=SECRET)
        return httpx.Client(base_url=self.gateway, headers={"Authorization": f"Bearer {token}"}, timeout=30)

    def tasks(self, user: str, merchant: str = "merchant-a", roles: tuple[str, ...] = ("annotator",)) -> httpx.Client:
        """A client of collab's task API for an annotator (or team lead) of ``merchant``."""
        token = mint_token(user_id=user, merchant_id=merchant, secret=SECRET, roles=roles)
        return httpx.Client(base_url=self.collab, headers={"Authorization": f"Bearer {token}"}, timeout=30)

    def upload(self, pdf: Path, merchant: str = "merchant-a") -> str:
        with self.client(merchant) as client, pdf.open("rb") as handle:
            response = client.post("/api/v1/jobs", files={"file": (pdf.name, handle, "application/pdf")})
        assert response.status_code == 201, response.text
        return response.json()["job_id"]

    def job(self, job_id: str, merchant: str = "merchant-a") -> dict:
        with self.client(merchant) as client:
            return client.get(f"/api/v1/jobs/{job_id}").json()

    def wait(self, job_id: str, until, timeout: float = 120, merchant: str = "merchant-a") -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            job = self.job(job_id, merchant)
            if until(job):
                return job
            time.sleep(0.3)
        raise AssertionError(f"job {job_id} still {job} after {timeout}s")

    def wait_finished(self, job_id: str, timeout: float = 120, merchant: str = "merchant-a") -> dict:
        return self.wait(job_id, lambda j: j["result_available"] or j["user_status"] == "failed",
                         timeout, merchant)

    def result(self, job_id: str, merchant: str = "merchant-a") -> dict:
        with self.client(merchant) as client:
            response = client.get(f"/api/v1/jobs/{job_id}/result")
        assert response.status_code == 200, response.text
        return response.json()


def tasks_of(pipeline, job_id: str, expect: int, timeout: float = 60) -> list[dict]:
    deadline = time.monotonic() + timeout
    with pipeline.tasks("ann") as client:
        while time.monotonic() < deadline:
            found = client.get("/api/v1/tasks", params={"job_id": job_id}).json()["tasks"]
            if len(found) >= expect:
                return sorted(found, key=lambda t: t["page"])
            time.sleep(0.3)
    raise AssertionError(f"{expect} tasks expected for {job_id}")


def records_of(pipeline: Pipeline, topic, since, job_id: str, expect: int, timeout: float = 20):
    """The records keyed by ``job_id`` on ``topic`` after the offsets ``since``, once ``expect`` are there."""
    return asyncio.run(read_since(pipeline.bootstrap, since, key=job_id.encode(), expect=expect, timeout=timeout))


def offsets(pipeline: Pipeline, *topics: str) -> dict:
    return {topic: asyncio.run(end_offsets(pipeline.bootstrap, topic)) for topic in topics}


@contextlib.contextmanager
def running_stack(database_url: str, bootstrap: str, root: Path, *, port_offset: int,
                  env: dict[str, str] | None = None) -> Iterator[Pipeline]:
    demo = Supervisor(REPO / ".run" / "services", env={})
    for name in SERVICES:  # a running demo would share the consumer groups
        demo.stop(name)
    subprocess.run(["bash", str(REPO / "scripts" / "infra"), "reset-kafka"], check=True, capture_output=True)
    subprocess.run(["bash", str(REPO / "scripts" / "infra"), "start"], check=True, capture_output=True)
    settings = {
        "SKUFLOW_DATABASE_URL": database_url, "SKUFLOW_KAFKA_BOOTSTRAP": bootstrap,
        "SKUFLOW_STORAGE_ROOT": str(root / "storage"), "SKUFLOW_JWT_SECRET": SECRET,
        "SKUFLOW_HANDLER_RETRIES": "2", "SKUFLOW_RETRY_BACKOFF_SECONDS": "0.1",
        "SKUFLOW_OUTBOX_POLL_SECONDS": "0.2", "SKUFLOW_UPLOADS_PER_MINUTE": "1000",
        "SKUFLOW_LOG_LEVEL": os.environ.get("SKUFLOW_LOG_LEVEL", "INFO"),
        # the workbench (collab) logs in at the gateway, both on offset ports
        "SKUFLOW_GATEWAY_URL": f"http://127.0.0.1:{SERVICES['gateway'] + port_offset}",
        "SKUFLOW_CORS_ORIGINS": f"http://127.0.0.1:{SERVICES['collab'] + port_offset}", **(env or {}),
    }
    supervisor = Supervisor(root / "services", env=settings, port_offset=port_offset)
    for name in SERVICES:
        supervisor.start(name)
    try:
        supervisor.wait_ready(list(SERVICES), timeout=120)
        yield Pipeline(supervisor, root / "storage", database_url, bootstrap)
    finally:
        for name in SERVICES:
            supervisor.stop(name)
