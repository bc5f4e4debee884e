"""Upload → eight services → result.json, on the real broker and database."""

import asyncio
import json
import signal
import time
from collections import Counter

import pytest
import sqlalchemy as sa
from aiokafka import AIOKafkaProducer

from skuflow_cli.catalog import generate_catalog
from skuflow_contracts.topics import JOB_COMPLETED, JOB_CREATED, PAGE_CLASSIFIED, PAGE_PARSED, SKU_DELIVERED
from skuflow_platform.tracing import trace_id_of
from tests.e2e.stack import offsets, records_of

pytestmark = pytest.mark.e2e


def truth_models(truth) -> dict[int, set[str]]:
    return {page.page: {sku.model for sku in page.skus} for page in truth}


def result_models(result) -> dict[int, set[str]]:
    return {page["page"]: {s["attributes"]["model"] for s in page["skus"] if s["validity"] == "valid"}
            for page in result["pages"]}


async def produce(bootstrap: str, topic: str, value: bytes, key: bytes) -> None:
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap)
    await producer.start()
    try:
        await producer.send_and_wait(topic, value, key=key)
    finally:
        await producer.stop()


def scalar(database_url: str, sql: str, **params) -> int:
    engine = sa.create_engine(database_url)
    try:
        with engine.connect() as conn:
            return conn.execute(sa.text(sql), params).scalar_one()
    finally:
        engine.dispose()



def test_an_upload_completes_with_a_result_that_matches_the_pdf(pipeline, tmp_path):
    pdf = tmp_path / "catalog.pdf"
    truth = generate_catalog(pdf, pages=6)
    start = offsets(pipeline, SKU_DELIVERED.name, JOB_CREATED.name, JOB_COMPLETED.name)
    job_id = pipeline.upload(pdf)
    job = pipeline.wait_finished(job_id)
    assert job["status"] == "FULL_IMPORTED" and job["user_status"] == "completed"
    assert (job["completed_pages"], job["total_pages"]) == (6, 6)

    result = pipeline.result(job_id)
    assert result["job"]["job_id"] == job_id and result["job"]["total_pages"] == 6
    assert [p["page"] for p in result["pages"]] == [1, 2, 3, 4, 5, 6]
    assert [p["page_type"] for p in result["pages"]] == [p.page_type for p in truth]
    assert result_models(result) == truth_models(truth)
    sku_count = sum(len(p.skus) for p in truth)
    assert job["sku_count"] == sku_count
    result_dir = pipeline.storage_root / "results" / job_id
    exported = [img["path"] for page in result["pages"] for img in page["images"] if img["path"]]
    assert exported and all((result_dir / path).is_file() for path in exported)

    delivered = records_of(pipeline, SKU_DELIVERED, start[SKU_DELIVERED.name], job_id, sku_count)
    sku_ids = [json.loads(r.value)["payload"]["sku"]["sku_id"] for r in delivered]
    assert len(sku_ids) == len(set(sku_ids)) == sku_count

    [created] = records_of(pipeline, JOB_CREATED, start[JOB_CREATED.name], job_id, 1)
    [completed] = records_of(pipeline, JOB_COMPLETED, start[JOB_COMPLETED.name], job_id, 1)
    trace = trace_id_of(json.loads(created.value)["traceparent"])
    assert trace and trace_id_of(json.loads(completed.value)["traceparent"]) == trace


def test_the_same_event_delivered_twice_changes_nothing(pipeline, tmp_path):
    pdf = tmp_path / "catalog.pdf"
    generate_catalog(pdf, pages=3, seed=11)
    start = offsets(pipeline, PAGE_PARSED.name)
    job_id = pipeline.upload(pdf)
    pipeline.wait_finished(job_id)
    parsed = records_of(pipeline, PAGE_PARSED, start[PAGE_PARSED.name], job_id, 3)
    outbox_sql = "SELECT count(*) FROM classifier.outbox WHERE message_key = :job"
    deliveries_sql = "SELECT count(*) FROM output.deliveries WHERE job_id = :job"
    before = (scalar(pipeline.database_url, outbox_sql, job=job_id),
              scalar(pipeline.database_url, deliveries_sql, job=job_id))

    classified_start = offsets(pipeline, PAGE_CLASSIFIED.name)[PAGE_CLASSIFIED.name]
    asyncio.run(produce(pipeline.bootstrap, PAGE_PARSED.name, parsed[0].value, parsed[0].key))
    event_id = json.loads(parsed[0].value)["event_id"]
    seen_sql = "SELECT count(*) FROM classifier.processed_events WHERE event_id = CAST(:id AS uuid)"
    time.sleep(3)  # the classifier has long consumed it: it is one message behind ours on the partition
    assert scalar(pipeline.database_url, seen_sql, id=event_id) == 1
    assert (scalar(pipeline.database_url, outbox_sql, job=job_id),
            scalar(pipeline.database_url, deliveries_sql, job=job_id)) == before
    assert records_of(pipeline, PAGE_CLASSIFIED, classified_start, job_id, 1, timeout=2) == []
    assert pipeline.job(job_id)["status"] == "FULL_IMPORTED"


def test_a_poison_message_goes_to_the_dlq_while_the_job_completes(pipeline, tmp_path):
    pdf = tmp_path / "catalog.pdf"
    truth = generate_catalog(pdf, pages=4, seed=5)
    dlq_start = offsets(pipeline, PAGE_PARSED.dlq)[PAGE_PARSED.dlq]
    job_id = pipeline.upload(pdf)
    malformed = json.dumps({"event_id": "e3b0c442-98fc-4c14-9afb-f4c8996fb924", "event_type": "page.parsed",
                            "schema_version": "1.0", "occurred_at": "2026-01-01T00:00:00Z",
                            "job_id": job_id, "merchant_id": "merchant-a", "producer": "intruder",
                            "payload": {"page": "two"}}).encode()
    for poison in (b"\x00\x01 not an event", malformed):
        asyncio.run(produce(pipeline.bootstrap, PAGE_PARSED.name, poison, job_id.encode()))

    job = pipeline.wait_finished(job_id)
    assert job["status"] == "FULL_IMPORTED" and job["completed_pages"] == 4
    assert result_models(pipeline.result(job_id)) == truth_models(truth)
    # each consumer of page.parsed (the classifier, and the gateway for progress) dead-letters both
    letters = records_of(pipeline, PAGE_PARSED.dlq, dlq_start, job_id, 4)
    by_consumer = Counter(dict(r.headers)["x-failed-by"].decode() for r in letters)
    assert by_consumer == {"classifier": 2, "gateway": 2}
    errors = sorted({dict(r.headers)["x-error"].decode() for r in letters})
    assert len(errors) == 2
    assert "invalid page.parsed event: payload.page" in errors[0] and "not JSON" in errors[1]


def test_killing_a_service_mid_job_loses_no_page_and_duplicates_no_sku(pipeline, tmp_path):
    pdf = tmp_path / "catalog.pdf"
    truth = generate_catalog(pdf, pages=30, seed=3)
    start = offsets(pipeline, SKU_DELIVERED.name)
    job_id = pipeline.upload(pdf)
    pipeline.wait(job_id, lambda j: j["completed_pages"] >= 1, timeout=60)
    pipeline.supervisor.stop("extractor", signal.SIGKILL)
    time.sleep(1)
    pipeline.supervisor.start("extractor")
    pipeline.supervisor.wait_ready(["extractor"])

    job = pipeline.wait_finished(job_id, timeout=180)
    assert job["status"] == "FULL_IMPORTED" and job["completed_pages"] == 30
    result = pipeline.result(job_id)
    assert [p["page"] for p in result["pages"]] == list(range(1, 31))
    sku_ids = [s["sku_id"] for p in result["pages"] for s in p["skus"]]
    assert len(sku_ids) == len(set(sku_ids))
    assert result_models(result) == truth_models(truth)
    count = sum(len(p.skus) for p in truth)
    delivered = records_of(pipeline, SKU_DELIVERED, start[SKU_DELIVERED.name], job_id, count)
    per_sku = Counter(json.loads(r.value)["payload"]["sku"]["sku_id"] for r in delivered)
    assert len(per_sku) == count and max(per_sku.values()) == 1
