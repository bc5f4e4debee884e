"""skuflow event contracts: the envelope, payload models and topic names shared by every service."""

from skuflow_contracts.envelope import EventEnvelope, new_envelope
from skuflow_contracts.registry import EVENTS, EventSpec, spec_for_topic, spec_for_type

__all__ = ["EVENTS", "EventEnvelope", "EventSpec", "new_envelope", "spec_for_topic", "spec_for_type"]
