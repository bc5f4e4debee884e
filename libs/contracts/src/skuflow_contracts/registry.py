"""Which event type travels on which topic with which payload model and schema version."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from skuflow_contracts import events, topics
from skuflow_contracts.topics import Topic


@dataclass(frozen=True)
class EventSpec:
    event_type: str
    topic: Topic
    payload: type[BaseModel]
    schema_version: str = "1.0"


EVENTS: tuple[EventSpec, ...] = (
    EventSpec("job.created", topics.JOB_CREATED, events.JobCreated),
    EventSpec("job.routed", topics.JOB_ROUTED, events.JobRouted),
    EventSpec("job.completed", topics.JOB_COMPLETED, events.JobCompleted),
    EventSpec("job.failed", topics.JOB_FAILED, events.JobFailed),
    EventSpec("job.cancelled", topics.JOB_CANCELLED, events.JobCancelled),
    EventSpec("job.cancel-confirmed", topics.JOB_CANCEL_CONFIRMED, events.JobCancelConfirmed, "1.1"),  # result_uri
    EventSpec("job.deleted", topics.JOB_DELETED, events.JobDeleted),
    EventSpec("page.parse-requested", topics.PAGE_PARSE_REQUESTED, events.PageParseRequested),
    # Page events 1.1: reading, layout, adapted_from (within-document adaptation)
    EventSpec("page.parsed", topics.PAGE_PARSED, events.PageParsed, "1.1"),
    EventSpec("page.classified", topics.PAGE_CLASSIFIED, events.PageClassified, "1.1"),
    EventSpec("page.extracted", topics.PAGE_EXTRACTED, events.PageExtracted, "1.1"),
    EventSpec("page.bound", topics.PAGE_BOUND, events.PageBound, "1.1"),
    EventSpec("page.reviewed", topics.PAGE_REVIEWED, events.PageReviewed, "1.1"),
    EventSpec("page.review-reverted", topics.PAGE_REVIEW_REVERTED, events.PageReviewReverted, "1.1"),
    EventSpec("page.failed", topics.PAGE_FAILED, events.PageFailed),
    EventSpec("page.imported", topics.PAGE_IMPORTED, events.PageImported),
    EventSpec("task.created", topics.TASK_CREATED, events.TaskCreated),
    EventSpec("sku.delivered", topics.SKU_DELIVERED, events.SkuDelivered, "1.1"),  # 1.1: image_links
    EventSpec("sku.superseded", topics.SKU_SUPERSEDED, events.SkuSuperseded),
    EventSpec("profile.published", topics.PROFILE_PUBLISHED, events.ProfilePublished),
)

_BY_TYPE = {spec.event_type: spec for spec in EVENTS}
_BY_TOPIC = {spec.topic.name: spec for spec in EVENTS}
_BY_PAYLOAD = {spec.payload: spec for spec in EVENTS}


def spec_for_type(event_type: str) -> EventSpec:
    return _BY_TYPE[event_type]


def spec_for_topic(topic: str) -> EventSpec:
    return _BY_TOPIC[topic]


def spec_for_payload(payload: BaseModel) -> EventSpec:
    return _BY_PAYLOAD[type(payload)]
