"""A page's trace bundle as the gateway hands it out (seed-001b §3.2): the stages' records of the page,
assembled and redacted. Each stage wrote its own record to storage when it handled the page
(``skuflow_contracts.traces``); the gateway reads no other service's schema.

Records of different readings are told apart, not hidden: a page read again after a correction, or a
reprocess under way, can leave a stage's record a reading ahead of the next stage's; the bundle says so."""

from __future__ import annotations

from collections.abc import Mapping

from skuflow_contracts.redaction import redact
from skuflow_contracts.traces import BindingTrace, ClassificationTrace, ExtractionTrace, PageTraceBundle

RECORDS = {"classification": ClassificationTrace, "extraction": ExtractionTrace, "binding": BindingTrace}


class NoTrace(LookupError):
    """No stage recorded the page."""


def assemble(job_id: str, page: int, records: Mapping[str, bytes]) -> PageTraceBundle:
    """The bundle of the records found (by stage name); NoTrace when there is none."""
    if not records:
        raise NoTrace(f"page {page} of job {job_id} has no trace: no stage recorded it (it was not read yet, "
                      "was dead-lettered before its classification, or was read before traces were kept)")
    found = {stage: RECORDS[stage].model_validate_json(data) for stage, data in records.items()}
    return PageTraceBundle(job_id=job_id, page=page, redacted=False, notes=disagreements(found), **found)


def disagreements(found: Mapping[str, ClassificationTrace | ExtractionTrace | BindingTrace]) -> list[str]:
    notes = [f"no {stage} record: the page has not reached it" for stage in RECORDS if stage not in found]
    generations = {stage: record.generation for stage, record in found.items()}
    if len(set(generations.values())) > 1:
        notes.append(f"records of different reprocesses (generation by stage: {generations})")
    extraction, binding = found.get("extraction"), found.get("binding")
    if extraction and binding and extraction.reading != binding.reading:
        notes.append(f"extraction recorded reading {extraction.reading}, binding reading {binding.reading}: "
                     "a re-read is on its way (or was sent again unchanged for a person)")
    return notes


def exported(bundle: PageTraceBundle) -> dict:
    """The bundle as it leaves the system: redacted by the whitelist (``skuflow_contracts.redaction``)."""
    return redact(bundle.model_copy(update={"redacted": True}).model_dump(mode="json"))
