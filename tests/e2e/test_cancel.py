"""Cancelling a job mid-way: once the cancel is acknowledged, not one more SKU of it is delivered."""

import time

import pytest

from skuflow_cli.catalog import generate_catalog
from skuflow_contracts.topics import SKU_DELIVERED
from tests.e2e.stack import offsets, records_of

pytestmark = pytest.mark.e2e


def test_a_job_cancelled_mid_way_delivers_nothing_after_the_cancel_is_acknowledged(pipeline, tmp_path):
    pdf = tmp_path / "catalog.pdf"
    generate_catalog(pdf, pages=30, seed=5)
    start = offsets(pipeline, SKU_DELIVERED.name)[SKU_DELIVERED.name]
    job_id = pipeline.upload(pdf)
    records_of(pipeline, SKU_DELIVERED, start, job_id, expect=1, timeout=120)  # mid-way: delivery has begun
    with pipeline.client() as client:
        answer = client.post(f"/api/v1/jobs/{job_id}/cancel")
        at_ack = offsets(pipeline, SKU_DELIVERED.name)  # every delivery published before the acknowledgement
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert (body["status"], body["delivery_stopped"]) == ("CANCELLED", True)
        time.sleep(8)  # the pages in flight when the job was cancelled run on (the parser skips the rest)
        job = client.get(f"/api/v1/jobs/{job_id}").json()
        assert (job["status"], job["user_status"], job["delivery_stopped"]) == ("CANCELLED", "cancelled", True)
        assert job["result_available"] and job["sku_count"] == body["delivered_skus"]  # a result of what went out
        assert client.get(f"/api/v1/jobs/{job_id}/result").json()["job"]["status"] == "CANCELLED"
        assert client.get(f"/api/v1/jobs/{job_id}/skus?limit=1000").json()["total"] == body["delivered_skus"]
        again = client.post(f"/api/v1/jobs/{job_id}/cancel")
        assert again.status_code == 409
        events = client.get(f"/api/v1/jobs/{job_id}/events").text
        assert "event: job_cancelled" in events
    late = records_of(pipeline, SKU_DELIVERED, at_ack[SKU_DELIVERED.name], job_id, expect=1, timeout=5)
    assert late == []
    before = records_of(pipeline, SKU_DELIVERED, start, job_id, expect=body["delivered_skus"], timeout=5)
    assert len(before) == body["delivered_skus"] >= 1  # what went downstream is what the cancel reports
