"""A full reprocess with a new config version through the running services: every page of a
finished job is read again under the profile version active now, and the open review tasks of a
replaced reading are skipped. A re-reading whose SKUs say what downstream already holds sends nothing
new: their deliveries keep revision 1 and their keys (only changed content supersedes, as after a
review; tests/e2e/test_review_loop.py shows that chain)."""

import time

import httpx
import pytest

from skuflow_cli.catalog import generate_catalog
from skuflow_contracts.codec import decode
from skuflow_contracts.topics import SKU_DELIVERED, SKU_SUPERSEDED
from skuflow_platform.auth import mint_token
from tests.e2e.stack import SECRET, offsets, records_of

pytestmark = pytest.mark.e2e
MERCHANT = "merchant-reprocess"  # its own merchant: its profiles touch no other test's jobs
PAGES = 3


def admin(pipeline) -> httpx.Client:
    token = mint_token(user_id="admin-r", merchant_id=MERCHANT, secret=SECRET, roles=("admin",))
    return httpx.Client(base_url=pipeline.gateway, headers={"Authorization": f"Bearer {token}"}, timeout=30)


def waiting_tasks(lead: httpx.Client, job_id: str, timeout: float = 60) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = lead.get("/api/v1/tasks", params={"job_id": job_id}).json()["tasks"]
        if found:
            return [task["task_id"] for task in found]
        time.sleep(0.3)
    raise AssertionError(f"no task of {job_id} within {timeout}s")


def test_a_finished_job_reprocessed_under_new_versions_supersedes_its_earlier_readings(pipeline, tmp_path):
    pdf = tmp_path / "catalog.pdf"
    generate_catalog(pdf, pages=PAGES, seed=21)
    with admin(pipeline) as client:  # published now, heard by every service while the first reading runs
        for name, settings in (("usual", {}), ("strict", {"extraction": {"sku_min_confidence": 0.999}})):
            assert client.post("/api/v1/config/profiles", json={
                "profile_id": name, "settings": settings}).status_code == 201
    start = offsets(pipeline, SKU_DELIVERED.name, SKU_SUPERSEDED.name)
    job_id = pipeline.upload(pdf, merchant=MERCHANT)
    first = pipeline.wait(job_id, lambda j: j["status"] == "FULL_IMPORTED", timeout=180, merchant=MERCHANT)
    delivered = [decode(SKU_DELIVERED.name, r.value).payload for r in records_of(
        pipeline, SKU_DELIVERED, start[SKU_DELIVERED.name], job_id, expect=first["sku_count"])]
    assert {d.revision for d in delivered} == {1} and len(delivered) == first["sku_count"] > 0

    with admin(pipeline) as client, pipeline.tasks("lead", merchant=MERCHANT, roles=("team_lead",)) as lead:
        running = client.post(f"/api/v1/jobs/{job_id}/reprocess", json={"profile": "strict"})
        assert running.status_code == 200, running.text
        assert running.json() == {"job_id": job_id, "status": "PROCESSING", "generation": 1, "pages": PAGES,
                                  "config_version": f"{MERCHANT}:strict:v1"}
        assert client.post(f"/api/v1/jobs/{job_id}/reprocess", json={}).status_code == 409  # one at a time

        strict = pipeline.wait(job_id, lambda j: j["status"] == "PARTIAL_IMPORTED", timeout=180, merchant=MERCHANT)
        assert (strict["config_version"], strict["generation"]) == (f"{MERCHANT}:strict:v1", 1)
        doubted = waiting_tasks(lead, job_id)  # strict sent its pages to a person

        again = client.post(f"/api/v1/jobs/{job_id}/reprocess", json={"profile": "usual"})
        assert again.status_code == 200 and again.json()["generation"] == 2
        usual = pipeline.wait(job_id, lambda j: j["status"] == "FULL_IMPORTED" and j["generation"] == 2,
                              timeout=180, merchant=MERCHANT)
        events = client.get(f"/api/v1/jobs/{job_id}/events").text
        assert events.count("event: job_reprocessed") == 2
        statuses = {lead.get(f"/api/v1/tasks/{task_id}").json()["status"] for task_id in doubted}
    assert statuses == {"SKIPPED"}  # the strict reading they would have reviewed was replaced
    assert usual["config_version"] == f"{MERCHANT}:usual:v1" and usual["sku_count"] == first["sku_count"]

    newest = records_of(pipeline, SKU_DELIVERED, start[SKU_DELIVERED.name], job_id,
                        expect=first["sku_count"] + 1, timeout=5)  # anything beyond the first delivery
    assert len(newest) == first["sku_count"]
    assert records_of(pipeline, SKU_SUPERSEDED, start[SKU_SUPERSEDED.name], job_id, expect=1, timeout=3) == []
