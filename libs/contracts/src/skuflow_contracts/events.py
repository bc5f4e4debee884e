"""Payloads of every skuflow event, version 1.

Page events repeat the few job facts a later stage needs (page count, file hash, route, the IR's
claim-check URI) so no stage has to query another service's database.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, TypeVar

from pydantic import Field

from skuflow_contracts.envelope import Contract
from skuflow_contracts.evaluation import EvaluationReport
from skuflow_contracts.ir import ParserBackend
from skuflow_contracts.profile import ThresholdProfile
from skuflow_contracts.results import (
    ExtractionMethod,
    ImageLink,
    ImageRecord,
    PageClassification,
    PageResult,
    Route,
    SkuRecord,
)
from skuflow_contracts.revisions import MAX_READING

Sha256 = str
PageWorkT = TypeVar("PageWorkT", bound="PageWork")


class JobCreated(Contract):
    filename: str
    file_uri: str
    file_hash: Sha256 = Field(min_length=64, max_length=64)
    size_bytes: int = Field(ge=1)
    config_version: str


class JobRouted(Contract):
    route: Route
    c_doc: float | None = None
    reason: str = ""
    degrade_reason: str | None = Field(None, description="why a HUMAN_ALL job went to people (INV-11)")
    evaluation: EvaluationReport | None = None
    file_uri: str
    file_hash: Sha256
    config_version: str


EVAL_FAILED_REASON = "eval_failed"  # job.failed from the evaluator's own failure (the job ends EVAL_FAILED)


class JobFailed(Contract):
    """The document cannot be processed at all (corrupt, encrypted, no pages, …)."""

    stage: str
    reason: str = Field(description="machine-readable cause, e.g. security:encrypted_pdf")
    message: str


class JobCancelled(Contract):
    """The uploader (or an operator) cancelled the job: pages still in flight stop, nothing more is
    delivered."""

    reason: str = Field(default="cancelled", description="why, for the audit trail")
    cancelled_by: str = Field(description="the user who asked")


class JobCancelConfirmed(Contract):
    """The output service has stopped the job's delivery: no SKU of it goes downstream after this.
    Version 1.1 added ``result_uri``: the result of what was delivered, marked CANCELLED."""

    delivered_skus: int = Field(ge=0, description="SKUs the job delivered before it was cancelled")
    result_uri: str | None = Field(None, description="since 1.1: result.json of the pages delivered before the "
                                   "cancel, each with the SKUs delivered; its job status is CANCELLED")


class JobDeleted(Contract):
    """The merchant deleted the job: every service forgets what it holds of it (rows, messages)."""

    deleted_by: str = Field(min_length=1)


class AdaptedFrom(Contract):
    """A page a person corrected, whose correction the reader learned from (issue 42)."""

    job_id: str
    page: int = Field(ge=1)
    task_id: str | None = None


class PageWork(Contract):
    """What every per-page event knows about its page and job."""

    page: int = Field(ge=1)
    total_pages: int = Field(ge=1)
    file_hash: Sha256
    route: Route
    config_version: str
    ir_uri: str
    document_warnings: list[str] = Field(default_factory=list, description="e.g. the PDF was repaired when opened")
    evaluation_review: str | None = Field(None, description="HYBRID: why the evaluator wants this page reviewed")
    llm_calls: int = Field(0, ge=0, description="LLM calls the page has used so far (the per-page cap)")
    llm_cost_usd: float = Field(0.0, ge=0, description="what those calls cost")
    generation: int = Field(0, ge=0, description="the job's full reprocess it belongs to (0: before any)")
    reading: int = Field(0, ge=0, le=MAX_READING, description="since 1.1: the machine's reading of the page "
                         "within its generation (0: the first; each re-read after a person corrected a page of "
                         "the same layout adds one; skuflow_contracts.revisions)")
    layout: str | None = Field(None, description="since 1.1: the page's layout signature, set by the extractor: "
                               "pages that share it are read alike, so one correction teaches them all")
    adapted_from: AdaptedFrom | None = Field(None, description="since 1.1: the corrected page this reading "
                                             "learned from (this job's, or the merchant's earlier job's)")
    parsed_at: datetime | None = Field(None, description="since 1.1: when the parser finished the page: the "
                                       "binder's page latency is measured from it")

    def advance(self, event: type[PageWorkT], **fields: object) -> PageWorkT:
        """The next stage's event for the same page, carrying the job facts along (``fields`` may
        update them, e.g. the LLM calls a stage added)."""
        return event(**({name: getattr(self, name) for name in PageWork.model_fields} | fields))

    def spent(self, calls: int, cost_usd: float) -> dict[str, object]:
        """The page's LLM tally after a stage made ``calls`` costing ``cost_usd``, for ``advance``."""
        return {"llm_calls": self.llm_calls + calls, "llm_cost_usd": round(self.llm_cost_usd + cost_usd, 6)}


class PageParseRequested(Contract):
    """The parser's own work item: one page of a routed document, keyed by job and page so the
    pages of one job spread over partitions and parser replicas."""

    page: int = Field(ge=1)
    total_pages: int = Field(ge=1)
    file_uri: str
    file_hash: Sha256
    route: Route
    config_version: str
    document_warnings: list[str] = Field(default_factory=list)
    evaluation_review: str | None = None
    generation: int = Field(0, ge=0, description="the job's full reprocess it belongs to (0: before any)")


class PageParsed(PageWork):
    parser_backend: ParserBackend


class PageClassified(PageWork):
    classification: PageClassification


class PageExtracted(PageWork):
    classification: PageClassification
    extraction_method: ExtractionMethod | None
    fallback_reason: str | None = None
    skus: list[SkuRecord]
    review_reasons: list[str] = Field(default_factory=list, description="why extraction doubts its own reading")
    reader_version: str | None = Field(default=None, description="the learned page reader that decided the SKUs")
    reading_confidence: float | None = Field(default=None, ge=0, le=1, description="its confidence in the page")


class PageBound(PageWork):
    result: PageResult


class PageReviewed(PageWork):
    """A person's reading of a page (or the machine's, kept when the task was skipped)."""

    task_id: str
    result: PageResult
    revision: int = Field(default=2, ge=2, description="above the reading it reviews; each revert and redo adds "
                                                       "one (skuflow_contracts.revisions)")


class PageReviewReverted(PageWork):
    """A team lead reverted a person's review of the page: what was learned from it is unlearned,
    and the pages re-read with it are read again without it."""

    task_id: str
    reverted_by: str
    reason: str


class PageFailed(Contract):
    """A page whose event could not be processed and went to a dead-letter topic."""

    page: int = Field(ge=1)
    total_pages: int | None = None
    stage: str
    error: str
    dlq_topic: str
    generation: int = Field(0, ge=0, description="the job's full reprocess it belongs to (0: before any)")


class TaskCreated(Contract):
    task_id: str
    page: int = Field(ge=1)
    task_type: str
    priority: int
    reason: str


class SkuDelivered(Contract):
    """One SKU for the downstream import. Deliveries are at least once: dedupe on ``delivery_key``.
    Version 1.1 added ``image_links``: ``images`` name our storage, which an importer cannot read."""

    delivery_key: str = Field(default="", description="merchant/job/revision/sku_id: the import's idempotency key")
    revision: int = Field(default=1, ge=1, description="1 for the automatic result; human reviews add revisions")
    page: int = Field(ge=1)
    file_hash: Sha256
    sku: SkuRecord
    images: list[ImageRecord] = Field(default_factory=list)
    image_links: list[ImageLink] = Field(default_factory=list, description="since 1.1: a signed, expiring HTTP "
                                         "link to each of ``images`` (docs/importer.md)")


class SkuSuperseded(Contract):
    """An SKU delivered before that a later revision of its page replaces or drops (seed-001a §5.4)."""

    delivery_key: str = Field(description="the key it was delivered under")
    sku_id: str
    page: int = Field(ge=1)
    revision: int = Field(ge=1, description="the revision it was delivered in")
    superseded_by: int = Field(ge=2, description="the revision that replaces it")


class PageImported(Contract):
    """The downstream import of one page's SKUs moved (seed-001a §7.26–7.27): the receiver confirmed
    it, accepted it for later (assumed, until reconciliation confirms it), refused or missed it
    (failed; retried with backoff), or it was skipped after failing for a day."""

    page: int = Field(ge=1)
    revision: int = Field(ge=1)
    status: Literal["IMPORTED_CONFIRMED", "IMPORTED_ASSUMED", "IMPORT_FAILED", "SKIPPED"]
    sku_count: int = Field(ge=0)
    attempts: int = Field(ge=0, description="calls made to the receiver for this page and revision")
    error: str | None = Field(default=None, description="why the last call failed")


class ProfilePublished(Contract):
    """A new threshold profile version (seed-001a §7.29). Versions never change once published, so
    a service keeps each in its read model and a job frozen to one is judged by it however late its
    pages run. Keyed by ``config_version``, which names it everywhere."""

    config_version: str = Field(min_length=1, max_length=200)
    profile: ThresholdProfile


class JobCompleted(Contract):
    status: Literal["FULL_IMPORTED", "PARTIAL_IMPORTED", "PARTIAL_FAILED", "DEGRADED_HUMAN"]
    result_uri: str
    sku_count: int = Field(ge=0)
    total_pages: int = Field(ge=0)
    failed_pages: list[int] = Field(default_factory=list)
    generation: int = Field(0, ge=0, description="the job's full reprocess it belongs to (0: before any)")
