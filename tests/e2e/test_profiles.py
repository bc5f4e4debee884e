"""Threshold profiles through the running services: a job is judged by the profile version it was
frozen to at upload, read by every service from its own read model, even after that version was
rolled back mid-way; a stale update is refused."""

import httpx
import pytest

from skuflow_cli.catalog import generate_catalog
from skuflow_platform.auth import mint_token
from tests.e2e.stack import SECRET

pytestmark = pytest.mark.e2e
MERCHANT = "merchant-profiles"  # its own merchant: its default profile touches no other test's jobs


def admin(pipeline) -> httpx.Client:
    token = mint_token(user_id="admin-p", merchant_id=MERCHANT, secret=SECRET, roles=("admin",))
    return httpx.Client(base_url=pipeline.gateway, headers={"Authorization": f"Bearer {token}"}, timeout=30)


def test_a_running_job_keeps_its_frozen_version_after_a_rollback(pipeline, tmp_path):
    pdf = tmp_path / "catalog.pdf"
    generate_catalog(pdf, pages=4, seed=9)
    with admin(pipeline) as client:
        assert client.post("/api/v1/config/profiles", json={
            "profile_id": "strict", "is_default": True, "settings": {}}).status_code == 201
        strict = client.put("/api/v1/config/profiles/strict", json={
            "expected_version": "v1", "settings": {"extraction": {"sku_min_confidence": 0.999}},
            "change_reason": "every SKU to a person"})
        assert strict.status_code == 200 and strict.json()["version"] == "v2"
        stale = client.put("/api/v1/config/profiles/strict", json={"expected_version": "v1", "settings": {}})
        assert stale.status_code == 409 and stale.json()["detail"]["code"] == "CONFIG_CONFLICT"

        frozen_v2 = pipeline.upload(pdf, merchant=MERCHANT)
        rolled = client.post("/api/v1/config/profiles/strict/rollback", json={"change_reason": "too strict"})
        assert rolled.status_code == 200 and rolled.json()["active_version"] == "v1"
        frozen_v1 = pipeline.upload(pdf, merchant=MERCHANT)

    done = lambda job: job["status"] in ("FULL_IMPORTED", "PARTIAL_IMPORTED", "PARTIAL_FAILED")  # noqa: E731
    strict_job = pipeline.wait(frozen_v2, done, timeout=180, merchant=MERCHANT)
    usual_job = pipeline.wait(frozen_v1, done, timeout=180, merchant=MERCHANT)
    assert strict_job["config_version"] == f"{MERCHANT}:strict:v2"
    assert usual_job["config_version"] == f"{MERCHANT}:strict:v1"
    assert strict_job["status"] == "PARTIAL_IMPORTED"  # v2's threshold sent its pages to review
    assert usual_job["status"] == "FULL_IMPORTED"
