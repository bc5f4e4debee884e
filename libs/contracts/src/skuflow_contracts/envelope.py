"""The envelope every Kafka message carries (ARCHITECTURE §2).

The envelope is strict about its own fields but ignores unknown ones, so a producer on a newer
minor version can add fields without breaking older consumers. A payload is validated against
the model its ``event_type`` names; a malformed one raises ``pydantic.ValidationError``, which the
service runtime turns into a dead-letter entry instead of a crash.
"""

from __future__ import annotations

import functools
import uuid
from datetime import UTC, datetime
from typing import Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

P = TypeVar("P", bound=BaseModel)


class Contract(BaseModel):
    """Base of every payload: tolerant of fields added by a newer minor version."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class EventEnvelope(BaseModel, Generic[P]):
    model_config = ConfigDict(extra="ignore", frozen=True)

    event_id: uuid.UUID
    event_type: str = Field(min_length=1)
    schema_version: str = Field(pattern=r"^\d+\.\d+$")
    occurred_at: datetime
    job_id: str = Field(min_length=1)
    merchant_id: str = Field(min_length=1)
    producer: str = Field(min_length=1)
    traceparent: str | None = None
    payload: P

    @property
    def major_version(self) -> int:
        return int(self.schema_version.split(".")[0])


@functools.cache
def envelope_of(payload: type[BaseModel]) -> type[EventEnvelope]:
    """The envelope class of one payload type, made once: pydantic keeps a parametrized generic only
    while something refers to it, so ``EventEnvelope[X]`` built a new class for nearly every event
    (a tenth of a light service's time)."""
    return EventEnvelope[payload]  # type: ignore[valid-type]


def new_envelope(
    payload: P,
    *,
    event_type: str,
    schema_version: str,
    job_id: str,
    merchant_id: str,
    producer: str,
    traceparent: str | None = None,
    event_id: uuid.UUID | None = None,
) -> EventEnvelope[P]:
    return envelope_of(type(payload))(
        event_id=event_id or uuid.uuid4(),
        event_type=event_type,
        schema_version=schema_version,
        occurred_at=datetime.now(UTC),
        job_id=job_id,
        merchant_id=merchant_id,
        producer=producer,
        traceparent=traceparent,
        payload=payload,
    )
