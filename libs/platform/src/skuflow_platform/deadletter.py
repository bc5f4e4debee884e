"""Dead-letter topics: where a message goes when it cannot be handled, with its error attached.

The original bytes are kept unchanged so ``replay`` can send them back to their topic once the
cause is fixed. When the failed message was about one page, a ``page.failed`` event tells the
output service, so the job can finish as PARTIAL_FAILED instead of waiting forever.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from faststream.kafka import KafkaBroker

from skuflow_contracts.codec import encode, envelope_for
from skuflow_contracts.envelope import EventEnvelope
from skuflow_contracts.events import PageFailed
from skuflow_contracts.topics import PAGE_FAILED
from skuflow_platform.metrics import DEAD_LETTERS

log = logging.getLogger(__name__)

ORIGINAL_TOPIC = "x-original-topic"
ERROR = "x-error"
ERROR_TYPE = "x-error-type"
FAILED_BY = "x-failed-by"
ATTEMPTS = "x-attempts"
FAILED_AT = "x-failed-at"
DLQ_HEADERS = (ORIGINAL_TOPIC, ERROR, ERROR_TYPE, FAILED_BY, ATTEMPTS, FAILED_AT)


def dlq_topic(topic: str) -> str:
    return f"{topic}.dlq"


def original_of(dlq: str) -> str:
    """The topic a dead letter came from, when its header does not say."""
    return dlq.removesuffix(".dlq")


class DeadLetters:
    def __init__(self, broker: KafkaBroker, service: str) -> None:
        self.broker = broker
        self.service = service

    async def send(self, *, topic: str, body: bytes, key: bytes | None, error: BaseException,
                   attempts: int, envelope: EventEnvelope | None) -> None:
        """Publish to ``<topic>.dlq``; raises if Kafka refuses, so the offset is not committed."""
        headers = {
            ORIGINAL_TOPIC: topic,
            ERROR: str(error)[:4000],
            ERROR_TYPE: type(error).__name__,
            FAILED_BY: self.service,
            ATTEMPTS: str(attempts),
            FAILED_AT: datetime.now(UTC).isoformat(),
        }
        if envelope is not None and envelope.traceparent:
            headers["traceparent"] = envelope.traceparent
        await self.broker.publish(body, topic=dlq_topic(topic), key=key, headers=headers)
        DEAD_LETTERS.labels(topic).inc()
        log.error("message dead-lettered", extra={"fields": {
            "topic": topic, "dlq": dlq_topic(topic), "error": str(error), "attempts": attempts}})
        page = getattr(envelope.payload, "page", None) if envelope is not None else None
        if envelope is not None and isinstance(page, int) and topic != PAGE_FAILED.name:
            await self._announce_failed_page(envelope, page, topic, error)

    async def _announce_failed_page(self, envelope: EventEnvelope, page: int, topic: str,
                                    error: BaseException) -> None:
        failed = PageFailed(page=page, total_pages=getattr(envelope.payload, "total_pages", None),
                            stage=self.service, error=f"{type(error).__name__}: {error}"[:2000],
                            dlq_topic=dlq_topic(topic), generation=getattr(envelope.payload, "generation", 0))
        _, event = envelope_for(failed, job_id=envelope.job_id, merchant_id=envelope.merchant_id,
                                producer=self.service, traceparent=envelope.traceparent)
        await self.broker.publish(encode(event), topic=PAGE_FAILED.name, key=envelope.job_id.encode())
