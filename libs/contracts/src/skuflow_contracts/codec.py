"""Turning Kafka bytes into typed envelopes and back, with errors a human can act on."""

from __future__ import annotations

import json

from pydantic import BaseModel, ValidationError

from skuflow_contracts.envelope import EventEnvelope, envelope_of, new_envelope
from skuflow_contracts.registry import EventSpec, spec_for_payload, spec_for_topic


class ContractViolation(ValueError):
    """A message that does not honour its topic's contract; it belongs in the DLQ, not a retry."""


def encode(envelope: EventEnvelope) -> bytes:
    return envelope.model_dump_json().encode("utf-8")


def envelope_for(payload: BaseModel, *, job_id: str, merchant_id: str, producer: str,
                 traceparent: str | None = None) -> tuple[EventSpec, EventEnvelope]:
    """Wrap a payload in the envelope its registered event type prescribes."""
    spec = spec_for_payload(payload)
    envelope = new_envelope(
        payload,
        event_type=spec.event_type,
        schema_version=spec.schema_version,
        job_id=job_id,
        merchant_id=merchant_id,
        producer=producer,
        traceparent=traceparent,
    )
    return spec, envelope


def decode(topic: str, raw: bytes) -> EventEnvelope:
    """Validate ``raw`` against the contract of ``topic``; raise ContractViolation if it breaks it."""
    spec = spec_for_topic(topic)
    try:
        document = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ContractViolation(f"{topic}: message is not JSON ({exc})") from exc
    if not isinstance(document, dict):
        raise ContractViolation(f"{topic}: message is not a JSON object")
    event_type = document.get("event_type")
    if event_type != spec.event_type:
        raise ContractViolation(
            f"{topic}: event_type {event_type!r} does not belong here (expected {spec.event_type!r})"
        )
    version = str(document.get("schema_version", ""))
    supported_major = spec.schema_version.split(".")[0]
    if version.split(".")[0] != supported_major:
        raise ContractViolation(
            f"{topic}: schema_version {version!r} is not readable by a v{supported_major} consumer"
        )
    try:
        return envelope_of(spec.payload).model_validate(document)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors()
        )
        raise ContractViolation(f"{topic}: invalid {spec.event_type} event: {problems}") from exc
