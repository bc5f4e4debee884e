"""Which pages become human tasks, and of which kind."""

from skuflow_collab.domain.tasks import PRIORITY_HIGH, task_for
from skuflow_contracts.results import BindingRecord, PageResult, Validation


def page(needs_review=True, bindings=(), rules=(), method="two_stage"):
    return PageResult(page=1, status="HUMAN_QUEUED", page_type="C", layout="L2", needs_review=needs_review,
                      parser_backend="pymupdf", extraction_method=method, bindings=list(bindings),
                      validation=Validation(triggered_rules=list(rules), has_errors=bool(rules)))


def test_pages_without_review_need_no_task():
    assert task_for(page(needs_review=False)) is None


def test_ambiguous_bindings_become_high_priority_binding_reviews():
    binding = BindingRecord(sku_id="s1", image_id=None, confidence=0.6, is_ambiguous=True, method="grid_alignment")
    task = task_for(page(bindings=[binding], rules=["INV-06:s2"]))
    assert (task.task_type, task.priority) == ("BINDING_REVIEW", PRIORITY_HIGH) and "s1" in task.reason


def test_other_reviews_are_page_reviews_that_say_why():
    assert task_for(page(rules=["INV-06:s2"])).reason == "INV-06:s2"
    assert task_for(page()).task_type == "PAGE_REVIEW"


def test_a_page_nothing_could_be_read_from_is_annotated_whole_first():
    task = task_for(page(method="final_fallback"))
    assert (task.task_type, task.priority, task.reason) == ("FULL_PAGE_ANNOTATION", PRIORITY_HIGH,
                                                            "all_extraction_failed")
