"""Retrying dead-lettered pages once their cause is fixed: the job completes as a first run would have."""

import httpx
import pytest

from skuflow_cli.catalog import generate_catalog
from skuflow_contracts.topics import PAGE_PARSED
from skuflow_platform.auth import mint_token
from tests.e2e.stack import SECRET
from tests.e2e.test_pipeline import result_models, truth_models

pytestmark = pytest.mark.e2e


def test_dead_lettered_pages_are_retried_after_their_cause_is_fixed(pipeline, tmp_path):
    pdf = tmp_path / "catalog.pdf"
    truth = generate_catalog(pdf, pages=4, seed=9)
    broken = tmp_path / "elsewhere"  # the cause: a classifier pointed at the wrong storage finds no page
    broken.mkdir()
    with pipeline.restarted(("classifier",), {"SKUFLOW_STORAGE_ROOT": str(broken)}):
        job_id = pipeline.upload(pdf)
        failed = pipeline.wait(job_id, lambda j: j["status"] == "PARTIAL_FAILED", timeout=120)
    assert "could not be processed" in failed["error_message"]
    with pipeline.client() as client:
        pages = client.get(f"/api/v1/jobs/{job_id}/pages").json()["pages"]
        assert {p["status"] for p in pages} == {"DEAD_LETTER"}
        assert client.post(f"/api/v1/jobs/{job_id}/pages/9/retry").status_code == 409
        one = client.post(f"/api/v1/jobs/{job_id}/pages/2/retry")
        assert one.status_code == 200 and one.json()["retried_pages"] == [2]
        pipeline.wait(job_id, lambda j: j["status"] == "PARTIAL_FAILED" and len(
            [p for p in client.get(f"/api/v1/jobs/{job_id}/pages").json()["pages"] if p["status"] != "DEAD_LETTER"])
            == 1, timeout=120)
        rest = client.post(f"/api/v1/jobs/{job_id}/retry-failed")
        assert rest.status_code == 200 and rest.json()["retried_pages"] == [1, 3, 4]
    job = pipeline.wait(job_id, lambda j: j["status"] == "FULL_IMPORTED", timeout=120)
    assert job["completed_pages"] == 4 and job["error_message"] is None
    assert result_models(pipeline.result(job_id)) == truth_models(truth)
    with pipeline.client() as client:
        assert client.post(f"/api/v1/jobs/{job_id}/retry-failed").status_code == 409


def test_an_operator_replays_a_jobs_dead_letters_after_their_cause_is_fixed(pipeline, tmp_path):
    pdf = tmp_path / "catalog.pdf"
    truth = generate_catalog(pdf, pages=3, seed=9)
    broken = tmp_path / "elsewhere"
    broken.mkdir()
    with pipeline.restarted(("classifier",), {"SKUFLOW_STORAGE_ROOT": str(broken)}):
        job_id = pipeline.upload(pdf)
        pipeline.wait(job_id, lambda j: j["status"] == "PARTIAL_FAILED", timeout=120)
    token = mint_token(user_id="ops-1", merchant_id="merchant-a", secret=SECRET, roles=("ops",))
    with httpx.Client(base_url=pipeline.gateway, headers={"Authorization": f"Bearer {token}"}, timeout=60) as ops:
        letters = ops.get(f"/api/v1/jobs/{job_id}/dead-letters").json()["dead_letters"]
        assert len(letters) == 3 and {letter["original_topic"] for letter in letters} == {PAGE_PARSED.name}
        assert all("ir.json" in letter["error"] or "nothing stored" in letter["error"] for letter in letters)
        with pipeline.client() as uploader:
            assert uploader.post(f"/api/v1/jobs/{job_id}/dead-letters/replay").status_code == 403
        replayed = ops.post(f"/api/v1/jobs/{job_id}/dead-letters/replay")
        assert replayed.status_code == 200 and len(replayed.json()["replayed"]) == 3
    pipeline.wait(job_id, lambda j: j["status"] == "FULL_IMPORTED", timeout=120)
    assert result_models(pipeline.result(job_id)) == truth_models(truth)
