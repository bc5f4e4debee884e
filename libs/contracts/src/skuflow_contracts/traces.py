"""The page trace bundle (seed-001b §3.2): what each stage saw and decided on one page.

Each stage that handles a page writes its own record at a deterministic storage key (``trace_key``)
beside the job's other files, so no service reads another's schema and the job's deletion or
retention removes the traces with the rest. The gateway assembles the records into a bundle on
request; ``skuflow replay`` re-runs the page from one. A record carries what the stage decided and
what it was given beyond the page itself (the profile, the previous page's table header, the
lessons an adapted reader learnt from, the images already seen), so the page can be read again
offline. The page's IR is named by its storage key and SHA-256, not copied: it stays where the
parser put it, with the job's other files.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

from pydantic import Field

from skuflow_contracts.envelope import Contract
from skuflow_contracts.events import AdaptedFrom
from skuflow_contracts.profile import ThresholdProfile
from skuflow_contracts.results import ExtractionMethod, PageClassification, PageResult, SkuRecord

TRACE_VERSION = 1
STAGES = ("classification", "extraction", "binding")


def trace_key(job_id: str, page: int, stage: str) -> str:
    """Where ``stage`` keeps its record of the page (under the job's directory: deleted with it)."""
    return f"jobs/{job_id}/traces/page_{page:03d}/{stage}.json"


class StageTiming(Contract):
    started_at: datetime
    elapsed_ms: float = Field(ge=0, description="the stage's own work on the page")
    waited_ms: float | None = Field(None, description="from the event the stage handled being sent to its handling")


@dataclass
class Stopwatch:
    """Started when a stage takes a page; ``timing`` when it is done."""

    started_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    started: float = field(default_factory=time.perf_counter)

    def timing(self, sent_at: datetime | None = None) -> StageTiming:
        waited = (self.started_at - sent_at).total_seconds() * 1000 if sent_at else None
        return StageTiming(started_at=self.started_at, elapsed_ms=round((time.perf_counter() - self.started) * 1000, 2),
                           waited_ms=round(max(waited, 0.0), 2) if waited is not None else None)


class StageTrace(Contract):
    """One stage's record of one page."""

    job_id: str
    page: int = Field(ge=1)
    generation: int = 0

    @property
    def key(self) -> str:
        return trace_key(self.job_id, self.page, self.stage)

    def to_bytes(self) -> bytes:
        return self.model_dump_json().encode()


class ModelUse(Contract):
    """A stage's calls to a language model. A stage a model decided is replayed as recorded (no call)."""

    calls: int = Field(0, ge=0)
    cost_usd: float = Field(0.0, ge=0)


class PageInputs(Contract):
    """The page as the stages read it: its IR and the images it names (keys and hashes only, never bytes)."""

    ir_uri: str
    ir_sha256: str
    parser_backend: str | None
    status: str
    screenshot_uri: str | None = None
    image_hashes: dict[str, str] = Field(default_factory=dict, description="image_id -> content hash")
    image_uris: list[str] = Field(default_factory=list)


class ClassificationTrace(StageTrace):
    stage: Literal["classification"] = "classification"
    file_hash: str
    config_version: str
    inputs: PageInputs
    profile: ThresholdProfile = Field(description="the profile of config_version, as every stage read the page")
    classification: PageClassification
    model: ModelUse = Field(default_factory=ModelUse)
    timing: StageTiming


class ReaderCandidate(Contract):
    kind: Literal["code", "name"]
    key: str
    cell: int | None
    sources: list[str]
    price: str | None = None
    probability: float
    taken: bool


class ReaderStages(Contract):
    """The learned reader's stages on the page: geometry (cells, rows), the rule readers' vote among the
    candidates, every candidate with its calibrated probability and whether assembly took it."""

    reader_version: str
    cells: int
    rows: int
    rules_method: ExtractionMethod | None
    rules_skus: int
    take: float
    review_below: float
    candidates: list[ReaderCandidate]


class ExtractionOutcome(Contract):
    method: ExtractionMethod | None
    fallback_reason: str | None = None
    review_reasons: list[str] = Field(default_factory=list)
    reader_version: str | None = None
    confidence: float | None = None
    skus: list[SkuRecord] = Field(default_factory=list)


class ExtractionTrace(StageTrace):
    stage: Literal["extraction"] = "extraction"
    reading: int = 0
    layout: str | None = None
    evaluation_review: str | None = None
    previous_table: dict | None = Field(None, description="the table header the page before ended with")
    adapted_from: AdaptedFrom | None = None
    lesson_ids: list[int] = Field(default_factory=list)
    lessons: list[str] = Field(default_factory=list, description="the lessons the reader was adapted to "
                                                                 "(base64): features and verdicts, no text")
    reader: ReaderStages | None = Field(None, description="none: the rule readers' reading stood")
    extraction: ExtractionOutcome
    model: ModelUse = Field(default_factory=ModelUse)
    timing: StageTiming | None = Field(None, description="none for a re-read after a correction (many at once)")


class BindingTrace(StageTrace):
    stage: Literal["binding"] = "binding"
    reading: int = 0
    seen_images: list[str] = Field(default_factory=list, description="content hashes of the job's images "
                                                                     "seen on earlier pages (dedup)")
    seen_perceptual: list[str] = Field(default_factory=list)
    result: PageResult = Field(description="images, binding candidates and chosen bindings, validation")
    model: ModelUse = Field(default_factory=ModelUse)
    timing: StageTiming


class PageTraceBundle(Contract):
    trace_version: Literal[1] = TRACE_VERSION
    job_id: str
    page: int = Field(ge=1)
    redacted: bool = Field(description="prices, phone and ID numbers masked outside the whitelist")
    classification: ClassificationTrace | None = None
    extraction: ExtractionTrace | None = None
    binding: BindingTrace | None = None
    notes: list[str] = Field(default_factory=list, description="where the records disagree (a page in flight)")
