"""The downstream import of a page's SKUs (seed-001a §7.26–7.27, §5.3): its states, how a receiver's
answer moves it, when to call again, and when a job may count as fully imported (INV-04).

One import per page and revision: a review's revision is imported on its own, and an import the
review makes pointless (still pending or failing) is superseded. The receiver dedupes each SKU on
its delivery key, so calling again after a timeout cannot import an SKU twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from skuflow_platform.states import Machine

PENDING, CONFIRMED, ASSUMED = "PENDING", "IMPORTED_CONFIRMED", "IMPORTED_ASSUMED"
FAILED, SKIPPED, SUPERSEDED = "IMPORT_FAILED", "SKIPPED", "SUPERSEDED"

PAGE_IMPORT = Machine(
    entity="page import",
    states=(PENDING, CONFIRMED, ASSUMED, FAILED, SKIPPED, SUPERSEDED),
    final=frozenset({CONFIRMED, SKIPPED, SUPERSEDED}),
    moves={
        (None, "deliver"): PENDING,
        **{(status, "confirmed"): CONFIRMED for status in (PENDING, FAILED)},
        **{(status, "accepted"): ASSUMED for status in (PENDING, FAILED)},
        **{(status, "failed"): FAILED for status in (PENDING, FAILED)},
        **{(status, "supersede"): SUPERSEDED for status in (PENDING, FAILED)},
        **{(status, "cancel"): SKIPPED for status in (PENDING, FAILED)},
        (ASSUMED, "reconciled"): CONFIRMED,
        (FAILED, "stale_import_timeout"): SKIPPED,
    },
)

# Settled: nothing more will be sent for it. INV-04 lets a job be FULL_IMPORTED only when every
# import of it is settled; an assumed import counts (reconciliation confirms it later).
SETTLED = frozenset({CONFIRMED, ASSUMED, SKIPPED, SUPERSEDED})
# Worth calling again: the receiver was down, overloaded or slow, not refusing the content.
RETRYABLE_HTTP = frozenset({408, 425, 429})


@dataclass(frozen=True)
class Answer:
    """What one call to the receiver means for the page's import."""

    trigger: str  # confirmed / accepted / failed
    retry: bool = False
    error: str | None = None


def answer_of(http_status: int | None, body: object = None, error: str | None = None) -> Answer:
    """Classify the receiver's reply; ``http_status`` None is a call that got no reply (timeout,
    refused connection). 2xx with ``{"confirmed": true}`` is confirmed, any other 2xx is accepted;
    409 says the page is already there. 5xx, 408, 425 and 429 are tried again; another 4xx is a
    refusal of the content, which calling again cannot fix."""
    if http_status is None:
        return Answer("failed", retry=True, error=error or "no reply")
    if http_status == 409:
        return Answer("confirmed")
    if 200 <= http_status < 300:
        confirmed = isinstance(body, dict) and body.get("confirmed") is True
        return Answer("confirmed" if confirmed else "accepted")
    retry = http_status >= 500 or http_status in RETRYABLE_HTTP
    return Answer("failed", retry=retry, error=error or f"HTTP {http_status}")


def backoff_seconds(attempts: int, first: float, cap: float) -> float:
    """Wait before call ``attempts + 1``: doubling from ``first``, at most ``cap``."""
    return min(cap, first * 2 ** max(attempts - 1, 0))


def imports_settled(statuses: list[str]) -> bool:
    return all(status in SETTLED for status in statuses)


def page_key(merchant_id: str, job_id: str, revision: int, page: int) -> str:
    """The import's own key (the receiver's status lookup); each SKU in it has its delivery key."""
    return f"{merchant_id}/{job_id}/r{revision}/p{page}"
