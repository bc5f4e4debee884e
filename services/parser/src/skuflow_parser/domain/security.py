"""The document security check (seed-001a §7.3): limits and hostile content, before any page is parsed."""

from __future__ import annotations

from dataclasses import dataclass

MAX_PAGES = 2000
MAX_OBJECT_COUNT = 500_000


@dataclass(frozen=True)
class DocumentFacts:
    page_count: int
    object_count: int
    has_javascript: bool


@dataclass(frozen=True)
class SecurityLimits:
    max_pages: int = MAX_PAGES
    max_objects: int = MAX_OBJECT_COUNT


def rejection(facts: DocumentFacts, limits: SecurityLimits = SecurityLimits()) -> tuple[str, str] | None:
    """(reason, message) when the document must not be processed; None when it may."""
    if facts.object_count > limits.max_objects:
        return ("security:object_count_exceeded",
                f"the PDF has {facts.object_count} objects (limit {limits.max_objects}); it may be a PDF bomb")
    if facts.page_count > limits.max_pages:
        return "page_count_exceeded", f"the PDF has {facts.page_count} pages (limit {limits.max_pages})"
    if facts.has_javascript:
        return ("security:javascript_embedded",
                "the PDF contains JavaScript; please regenerate it with 'Print to PDF'")
    return None
