"""Contract tests: every event round-trips, newer minor fields are tolerated, bad ones are refused."""

import json

import pytest

from skuflow_contracts import EVENTS
from skuflow_contracts.codec import ContractViolation, decode, encode, envelope_for
from skuflow_contracts.events import PageClassified, PageParsed
from skuflow_contracts.profile import ThresholdProfile
from skuflow_contracts.results import PageClassification
from skuflow_contracts.topics import EVENT_TOPICS, PAGE_PARSED, all_topic_names

HASH = "ab" * 32


def sample(payload_model):
    """A minimal valid payload for every registered event type."""
    samples = {
        "JobCreated": dict(filename="c.pdf", file_uri="local://jobs/1/source.pdf", file_hash=HASH,
                           size_bytes=10, config_version="v1"),
        "JobRouted": dict(route="AUTO", file_uri="local://x", file_hash=HASH, config_version="v1"),
        "JobCompleted": dict(status="FULL_IMPORTED", result_uri="local://r", sku_count=3, total_pages=2),
        "JobFailed": dict(stage="parser", reason="corrupt_pdf", message="broken"),
        "JobCancelled": dict(cancelled_by="user-1"),
        "JobCancelConfirmed": dict(delivered_skus=12),
        "JobDeleted": dict(deleted_by="user-1"),
        "PageFailed": dict(page=2, stage="classifier", error="boom", dlq_topic="t.dlq"),
        "PageImported": dict(page=1, revision=1, status="IMPORTED_ASSUMED", sku_count=4, attempts=2),
        "ProfilePublished": dict(config_version="m1:furniture:v2", profile=ThresholdProfile(version="m1:furniture:v2")),
        "TaskCreated": dict(task_id="t1", page=1, task_type="PAGE_REVIEW", priority=2, reason="r"),
    }
    work = dict(page=1, total_pages=2, file_hash=HASH, route="AUTO", config_version="v1", ir_uri="local://ir")
    classification = dict(page_type="C", page_type_confidence=0.9, layout="L2")
    sku = dict(sku_id="abababab_p01_001", validity="valid", attributes={"model": "X-1", "price": "1.00"},
               source_bbox=[0, 0, 1, 1], confidence=0.9)
    result = dict(page=1, status="AI_COMPLETED", page_type="C", layout="L2", needs_review=False,
                  parser_backend="pymupdf", extraction_method="two_stage", skus=[sku])
    samples.update({
        "PageParsed": dict(work, parser_backend="pymupdf"),
        "PageParseRequested": dict(page=1, total_pages=2, file_uri="local://f.pdf", file_hash=HASH, route="AUTO",
                                   config_version="v1"),
        "PageClassified": dict(work, classification=classification),
        "PageExtracted": dict(work, classification=classification, extraction_method="two_stage", skus=[sku]),
        "PageBound": dict(work, result=result),
        "PageReviewed": dict(work, task_id="t1", result=result),
        "PageReviewReverted": dict(work, reading=1, layout="c4:ab12", adapted_from={"job_id": "job-1", "page": 2},
                                   task_id="t1", reverted_by="lead", reason="wrong column"),
        "SkuDelivered": dict(page=1, file_hash=HASH, sku=sku),
        "SkuSuperseded": dict(delivery_key="m1/job-1/r2/x", sku_id="x", page=1, revision=2, superseded_by=3),
    })
    return payload_model(**samples[payload_model.__name__])


@pytest.mark.parametrize("spec", EVENTS, ids=lambda s: s.event_type)
def test_every_event_round_trips_through_kafka_bytes(spec):
    _, envelope = envelope_for(sample(spec.payload), job_id="job-1", merchant_id="m1", producer="test")
    decoded = decode(spec.topic.name, encode(envelope))
    assert decoded == envelope
    assert decoded.payload == envelope.payload
    assert decoded.major_version == 1


def test_every_event_type_has_its_own_topic_and_a_dlq():
    assert len({spec.topic.name for spec in EVENTS}) == len(EVENTS) == len(EVENT_TOPICS)
    names = dict(all_topic_names())
    for topic in EVENT_TOPICS:
        assert topic.name.startswith("skuflow.") and topic.name.endswith(".v1")
        assert f"{topic.name}.dlq" in names
        if ".page." in topic.name:
            assert names[topic.name] >= 6


def _document(**changes):
    _, envelope = envelope_for(sample(PageParsed), job_id="job-1", merchant_id="m1", producer="test")
    document = json.loads(encode(envelope))
    document.update(changes)
    return document


def test_a_newer_minor_version_with_unknown_fields_is_tolerated():
    document = _document(schema_version="1.7", brand_new_header="x")
    document["payload"]["future_field"] = {"nested": True}
    decoded = decode(PAGE_PARSED.name, json.dumps(document).encode())
    assert decoded.schema_version == "1.7"
    assert decoded.payload.page == 1


def test_a_newer_major_version_is_refused_with_a_clear_error():
    with pytest.raises(ContractViolation, match="not readable by a v1 consumer"):
        decode(PAGE_PARSED.name, json.dumps(_document(schema_version="2.0")).encode())


@pytest.mark.parametrize("raw, message", [
    (b"\xff\xfe not json", "not JSON"),
    (b"[1, 2]", "not a JSON object"),
    (json.dumps({"event_type": "job.created"}).encode(), "does not belong here"),
])
def test_garbage_is_refused_with_a_clear_error(raw, message):
    with pytest.raises(ContractViolation, match=message):
        decode(PAGE_PARSED.name, raw)


def test_a_malformed_payload_names_the_broken_field():
    document = _document()
    document["payload"]["page"] = "first"
    del document["payload"]["ir_uri"]
    with pytest.raises(ContractViolation) as caught:
        decode(PAGE_PARSED.name, json.dumps(document).encode())
    assert "payload.page" in str(caught.value) and "payload.ir_uri" in str(caught.value)


def test_envelope_fields_are_validated():
    with pytest.raises(ContractViolation, match="event_id"):
        decode(PAGE_PARSED.name, json.dumps(_document(event_id="not-a-uuid")).encode())


def test_page_events_carry_job_facts_to_the_next_stage():
    parsed = sample(PageParsed)
    classification = PageClassification(page_type="A", page_type_confidence=0.9, layout="L1")
    advanced = parsed.advance(PageClassified, classification=classification)
    assert (advanced.page, advanced.total_pages, advanced.ir_uri) == (1, 2, "local://ir")
    assert advanced.classification.page_type == "A"


def test_export_writes_a_schema_per_topic_and_an_asyncapi_document(tmp_path):
    from skuflow_contracts.__main__ import export

    written = {p.name for p in export(tmp_path)}
    assert "asyncapi.json" in written
    assert {f"{spec.topic.name}.schema.json" for spec in EVENTS} <= written
    asyncapi = json.loads((tmp_path / "asyncapi.json").read_text())
    assert asyncapi["asyncapi"].startswith("3.")
    assert len(asyncapi["channels"]) == len(EVENTS)
    schema = json.loads((tmp_path / f"{PAGE_PARSED.name}.schema.json").read_text())
    assert {"event_id", "job_id", "merchant_id", "traceparent", "payload"} <= set(schema["properties"])
