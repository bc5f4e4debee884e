"""The security check refuses hostile documents before any page is parsed."""

import pytest
from pdf_samples import born_digital, with_javascript

from skuflow_parser.domain.document import UnreadableDocument
from skuflow_parser.domain.security import DocumentFacts, SecurityLimits, rejection
from skuflow_parser.pipeline import open_checked


def test_javascript_is_refused_with_the_seed_reason():
    with pytest.raises(UnreadableDocument) as caught:
        open_checked(with_javascript())
    assert caught.value.reason == "security:javascript_embedded"


def test_a_clean_document_passes():
    assert open_checked(born_digital().tobytes()).page_count == 1


def test_object_bombs_and_page_floods_are_refused_by_their_limits():
    limits = SecurityLimits(max_pages=3, max_objects=10)
    with pytest.raises(UnreadableDocument) as caught:
        open_checked(born_digital().tobytes(), limits)
    assert caught.value.reason == "security:object_count_exceeded"
    reason, message = rejection(DocumentFacts(page_count=4, object_count=5, has_javascript=False), limits)
    assert reason == "page_count_exceeded" and "4 pages" in message
    assert rejection(DocumentFacts(page_count=3, object_count=10, has_javascript=False), limits) is None
