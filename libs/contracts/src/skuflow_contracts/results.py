"""The page and job results of GOLDEN_FORMAT §1, shared by the binder, output and the CLI."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, get_args

from pydantic import Field

from skuflow_contracts.envelope import Contract
from skuflow_contracts.ir import BBox, ParserBackend

PageType = Literal["A", "B", "C", "D"]
Layout = Literal["L1", "L2", "L3", "L4"]
Route = Literal["AUTO", "HYBRID", "HUMAN_ALL"]
ImageRole = Literal["PRODUCT_MAIN", "DETAIL", "SCENE", "SIZE_CHART", "LOGO", "DECORATION"]
ExtractionMethod = Literal["table_rule", "two_stage", "single_stage", "final_fallback"]
SkuStatus = Literal["IMPORT_READY", "REJECTED", "PENDING_CONFIRMATION"]
AttributeName = Literal["model", "product_name", "size", "material", "color", "price"]
ATTRIBUTE_NAMES: tuple[str, ...] = get_args(AttributeName)
PARSE_FAILED, DEAD_LETTER = "AI_FAILED", "DEAD_LETTER"
FAILED_PAGE_STATUSES = frozenset({PARSE_FAILED, DEAD_LETTER})  # a page no reading came out of


class SkuAttributes(Contract):
    model: str | None = None
    product_name: str | None = None
    size: str | None = None
    material: str | None = None
    color: str | None = None
    price: str | None = None


class SkuRecord(Contract):
    sku_id: str
    validity: Literal["valid", "invalid"]
    attributes: SkuAttributes
    custom_attributes: dict[str, str] = Field(default_factory=dict)
    source_bbox: BBox
    confidence: float = Field(ge=0, le=1)
    quality_warning: str | None = None
    status: SkuStatus = "IMPORT_READY"
    raw_attributes: dict[str, str] = Field(
        default_factory=dict,
        description="attributes as printed where they were parsed ('R$ 1.234,56' for price 1234.56)")
    attribute_source: dict[str, str] = Field(
        default_factory=dict, description="attributes not printed on the SKU's own row or card: where they came "
                                          "from (table_caption, variant_card, inherited_header)")
    variant_group: str | None = Field(default=None, description="SKUs of one card that share its photo")
    origin: Literal["table_row", "card", "line"] | None = Field(
        default=None, description="what the SKU was read from: a table row, a product card or a single line")


class ImageRecord(Contract):
    image_id: str
    bbox: BBox
    role: ImageRole
    path: str | None = Field(default=None, description="relative to the result directory")
    short_edge: int
    is_duplicate: bool = False
    quality_warning: str | None = None
    source_uri: str | None = Field(default=None, description="claim-check URI before export")


class ImageLink(Contract):
    """A signed HTTP link to one stored image (the gateway's GET /api/v1/files) for importers that
    cannot read our storage. It dies at ``expires_at``: fetch and keep the image, not the link."""

    image_id: str
    url: str = Field(description="no token needed: the signature is the credential")
    expires_at: datetime


class BindingCandidate(Contract):
    image_id: str
    confidence: float


class BindingRecord(Contract):
    sku_id: str
    image_id: str | None
    confidence: float = Field(ge=0, le=1)
    is_ambiguous: bool = False
    method: str
    candidates: list[BindingCandidate] = Field(default_factory=list)


class Validation(Contract):
    triggered_rules: list[str] = Field(default_factory=list)
    has_errors: bool = False


class PageClassification(Contract):
    page_type: PageType
    page_type_confidence: float = Field(ge=0, le=1)
    layout: Layout | None
    block_roles: dict[int, str] = Field(default_factory=dict)
    image_roles: dict[str, ImageRole] = Field(default_factory=dict)
    needs_review: bool = False
    reason: str = ""
    detail: dict[str, object] = Field(default_factory=dict, description="features, scores and thresholds (NFR-13)")


class PageResult(Contract):
    page: int = Field(ge=1)
    status: str
    page_type: PageType | None
    layout: Layout | None
    needs_review: bool
    parser_backend: ParserBackend | None
    extraction_method: ExtractionMethod | None
    fallback_reason: str | None = None
    review_reasons: list[str] = Field(default_factory=list, description="why the page needs a person (empty if not)")
    skus: list[SkuRecord] = Field(default_factory=list)
    images: list[ImageRecord] = Field(default_factory=list)
    bindings: list[BindingRecord] = Field(default_factory=list)
    validation: Validation = Field(default_factory=Validation)
    reader_version: str | None = Field(default=None, description="the learned page reader that read the SKUs "
                                                                  "(null: the rule readers alone)")
    reading_confidence: float | None = Field(default=None, ge=0, le=1, description="the reader's calibrated "
                                             "confidence that the page's SKUs are all right and none is missing")


class JobSummary(Contract):
    job_id: str
    file_hash: str
    route: Route | None
    status: str
    total_pages: int
    config_version: str
    reader_version: str | None = Field(default=None, description="the learned page reader of its pages")


def reader_version_of(pages: list[PageResult]) -> str | None:
    """The reader a document's pages were read with (the latest, should a reprocess mix them)."""
    return max((p.reader_version for p in pages if p.reader_version), default=None)


class ResultDocument(Contract):
    schema_version: Literal[1] = 1
    job: JobSummary
    pages: list[PageResult]
    image_links: list[ImageLink] = Field(
        default_factory=list, description="a link to each exported image, signed afresh by the gateway each "
                                          "time it serves the result (not in the stored file)")

    def __repr__(self) -> str:
        """The job and its size, not every field of every page: Python 3.11's ``asyncio.run`` formats the
        finished task's result twice as it restores its SIGINT handler (20 ms for a 50-page result)."""
        return f"ResultDocument(job_id={self.job.job_id!r}, pages={len(self.pages)})"
