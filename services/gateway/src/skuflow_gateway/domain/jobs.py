"""Job statuses as users see them (seed-001b §2.2) and the rules an upload must pass."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from skuflow_contracts.events import EVAL_FAILED_REASON

PDF_MAGIC = b"%PDF-"
MAGIC_WINDOW = 1024  # the PDF header may follow a little junk; readers accept it within 1 KiB

INV_11_VIOLATED = "INV-11_violated"  # seed-001b §2.3's log event; the one route inconsistency INV-11 names

USER_STATUS = {
    "UPLOADED": "processing", "EVALUATING": "processing", "EVALUATED": "processing",
    "PROCESSING": "processing",
    "PARTIAL_FAILED": "partial_success", "PARTIAL_IMPORTED": "partial_success",
    "FULL_IMPORTED": "completed",
    "DEGRADED_HUMAN": "needs_manual",
    "REJECTED": "failed", "EVAL_FAILED": "failed", "ORPHANED": "failed",
    # The seed's map forgets CANCELLED (it would show as "processing"); a cancel is the user's, not a failure.
    "CANCELLED": "cancelled",
}
ACTION_HINT = {"processing": "please wait", "completed": "downloadable",
               "partial_success": "downloadable", "needs_manual": "please wait",
               "failed": "please check and re-upload"}
SPLIT_ADVICE = "please split it and upload the parts"
USER_ERROR_MESSAGES = {
    "security:encrypted_pdf": "PDF is encrypted; remove password protection and re-upload",
    "security:javascript_embedded": "PDF contains unsafe script content; please regenerate it with 'Print to PDF'",
    "corrupt_pdf": "The file could not be read as a PDF; please re-export it and upload again",
    "empty_pdf": "The PDF has no pages",
    "page_count_exceeded": f"The PDF has too many pages; {SPLIT_ADVICE}",
    "security:object_count_exceeded": "The PDF is abnormally complex and was refused as a possible PDF bomb",
    "timeout:no_progress": "Processing stopped making progress and was ended; please upload the file again",
    EVAL_FAILED_REASON: "The document could not be evaluated; please re-export it and upload again",
}


# Reasons whose stage states the facts (the page count and the limit): its words lead, then the advice.
ADVICE_AFTER_DETAIL = {"page_count_exceeded": SPLIT_ADVICE}
FAILED_PAGES_SHOWN = 5


def error_message(degrade_reason: str | None, failed_pages: list[tuple[int, str]],
                  total_pages: int | None, detail: str | None = None) -> str | None:
    """What went wrong, for a person: the job's own reason (with the failing stage's ``detail`` where
    it states the facts), else which pages failed and why."""
    if degrade_reason:
        advice = ADVICE_AFTER_DETAIL.get(degrade_reason)
        if advice and detail:
            return f"{detail[:1].upper()}{detail[1:]}; {advice}"
        return USER_ERROR_MESSAGES.get(degrade_reason, degrade_reason)
    if not failed_pages:
        return None
    shown = "; ".join(f"page {page}: {reason}" for page, reason in failed_pages[:FAILED_PAGES_SHOWN])
    more = len(failed_pages) - FAILED_PAGES_SHOWN
    tail = f"; and {more} more" if more > 0 else ""
    return f"{len(failed_pages)} of {total_pages or '?'} pages could not be processed ({shown}{tail})"


class UploadRejected(Exception):
    def __init__(self, status_code: int, message: str) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.message = message


MULTIPART_OVERHEAD = 64 * 1024  # boundaries and part headers around the file


@dataclass(frozen=True)
class UploadLimits:
    max_bytes: int

    def too_large(self) -> UploadRejected:
        return UploadRejected(413, f"the file is larger than the {self.max_bytes // (1024 * 1024)} MB limit")

    def check_declared(self, content_length: str | None) -> None:
        """Refuse a body whose declared length already exceeds the limit, before reading any of it."""
        if content_length and content_length.isdigit() and int(content_length) > self.max_bytes + MULTIPART_OVERHEAD:
            raise self.too_large()


def check_upload(head: bytes, size: int, limits: UploadLimits) -> None:
    """Reject what is obviously not a catalog before anything is stored."""
    if size == 0:
        raise UploadRejected(400, "the uploaded file is empty")
    if size > limits.max_bytes:
        raise limits.too_large()
    if PDF_MAGIC not in head[:MAGIC_WINDOW]:
        raise UploadRejected(415, "the file is not a PDF (no %PDF- header)")


def route_inconsistency(route: str | None, degrade_reason: str | None) -> str | None:
    """seed-001b §2.3: AUTO never carries a degrade_reason (INV-11), HUMAN_ALL always does."""
    if route == "AUTO" and degrade_reason is not None:
        return INV_11_VIOLATED
    if route == "HUMAN_ALL" and degrade_reason is None:
        return "route_human_no_reason"
    return None


def llm_cost_usd(evaluation: dict | None, page_costs: Iterable[float]) -> float:
    """What a job's model calls cost: the evaluator's (its report) and each page's latest reading's."""
    return round((evaluation or {}).get("llm_cost_usd", 0.0) + sum(page_costs), 6)


def user_status(status: str) -> str:
    return USER_STATUS.get(status, "processing")


def action_hint(shown: str, delivered_skus: int | None = None) -> str:
    """What the uploader may do now. A cancelled job says it was the user's doing and what it
    delivered before (``delivered_skus``; None until the output service has stopped delivery)."""
    if shown != "cancelled":
        return ACTION_HINT[shown]
    if delivered_skus is None:
        return "cancelled by the user; delivery is being stopped"
    if not delivered_skus:
        return "cancelled by the user before any SKU was delivered"
    counted = "1 SKU was" if delivered_skus == 1 else f"{delivered_skus} SKUs were"
    return f"cancelled by the user after {counted} delivered; that result is downloadable"


def no_result_yet(job_id: str, status: str) -> str:
    """Why a job shows no result: it runs, or it was cancelled and what it delivered is not known
    until the output service has stopped delivery (its result then holds just that)."""
    if status == "CANCELLED":
        return f"job {job_id} was cancelled; what it delivered is shown once delivery has stopped"
    return f"job {job_id} has no result yet (status {status})"


def utc_iso(at: datetime | None) -> str | None:
    """A time as ISO 8601 in UTC, whatever the database session's time zone."""
    return at.astimezone(UTC).isoformat() if at is not None else None


def pages_done(closed: bool, pages_seen: int, total_pages: int | None) -> int:
    """Pages finished so far, as the user is told.

    Page events and job.completed travel on different topics, so the gateway may learn that the
    output service closed the job (it wrote a result) before it has seen every page's own event; a
    closed job has every page accounted for.
    """
    if closed and total_pages:
        return total_pages
    return pages_seen
