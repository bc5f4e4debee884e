"""Assembling a page's trace bundle from the stages' records (pure: no storage, no database)."""

from datetime import UTC, datetime

import pytest

from skuflow_contracts.profile import profile_for
from skuflow_contracts.results import PageClassification, PageResult
from skuflow_contracts.traces import (
    BindingTrace,
    ClassificationTrace,
    ExtractionOutcome,
    ExtractionTrace,
    PageInputs,
    StageTiming,
)
from skuflow_gateway.domain.traces import NoTrace, assemble

TIMING = StageTiming(started_at=datetime(2026, 11, 1, tzinfo=UTC), elapsed_ms=2.0)
CLASSIFIED = ClassificationTrace(
    job_id="j", page=4, file_hash="f" * 64, config_version="v1", profile=profile_for("v1"), timing=TIMING,
    inputs=PageInputs(ir_uri="local://jobs/j/pages/0004/page.json", ir_sha256="a" * 64, parser_backend="pymupdf",
                      status="ok"),
    classification=PageClassification(page_type="B", page_type_confidence=0.8, layout="L2"))
READ = ExtractionTrace(job_id="j", page=4, reading=1, extraction=ExtractionOutcome(method="single_stage"))
BOUND = BindingTrace(job_id="j", page=4, reading=1, timing=TIMING, result=PageResult(
    page=4, status="AI_COMPLETED", page_type="B", layout="L2", needs_review=False, parser_backend="pymupdf",
    extraction_method="single_stage"))


def test_the_records_of_one_reading_make_a_bundle_with_nothing_to_note():
    bundle = assemble("j", 4, {record.stage: record.to_bytes() for record in (CLASSIFIED, READ, BOUND)})
    assert (bundle.classification, bundle.extraction, bundle.binding, bundle.notes) == (CLASSIFIED, READ, BOUND, [])
    assert not bundle.redacted


def test_a_page_in_flight_or_read_again_is_noted_not_hidden():
    ahead = READ.model_copy(update={"reading": 2})
    bundle = assemble("j", 4, {"classification": CLASSIFIED.to_bytes(), "extraction": ahead.to_bytes(),
                               "binding": BOUND.to_bytes()})
    assert bundle.notes == ["extraction recorded reading 2, binding reading 1: a re-read is on its way "
                            "(or was sent again unchanged for a person)"]
    reprocessed = CLASSIFIED.model_copy(update={"generation": 1})
    bundle = assemble("j", 4, {"classification": reprocessed.to_bytes()})
    assert bundle.notes == ["no extraction record: the page has not reached it",
                            "no binding record: the page has not reached it"]
    bundle = assemble("j", 4, {"classification": reprocessed.to_bytes(), "extraction": READ.to_bytes()})
    assert "records of different reprocesses (generation by stage: {'classification': 1, 'extraction': 0})" \
        in bundle.notes


def test_a_page_no_stage_recorded_has_no_trace_and_says_why():
    with pytest.raises(NoTrace, match="page 4 of job j has no trace: no stage recorded it"):
        assemble("j", 4, {})
