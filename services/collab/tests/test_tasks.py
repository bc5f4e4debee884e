"""Which pages become human tasks, of which kind, and their ids."""

import uuid

import pytest

from skuflow_collab.domain.tasks import PRIORITY_HIGH, PRIORITY_NORMAL, task_for, task_id_of
from skuflow_contracts.results import BindingRecord, PageResult, SkuRecord, Validation


def sku(status="IMPORT_READY"):
    return SkuRecord(sku_id="s1", validity="valid", attributes={"model": "X-1"}, source_bbox=(0, 0, 1, 1),
                     confidence=0.6, status=status)


def page(needs_review=True, bindings=(), rules=(), method="two_stage", reasons=None, skus=None, page_type="C"):
    return PageResult(page=1, status="HUMAN_QUEUED", page_type=page_type, layout="L2", needs_review=needs_review,
                      parser_backend="pymupdf", extraction_method=method, bindings=list(bindings),
                      skus=[sku()] if skus is None else list(skus),
                      review_reasons=list(rules if reasons is None else reasons),
                      validation=Validation(triggered_rules=list(rules), has_errors=bool(rules)))


def test_pages_without_review_need_no_task_unless_the_job_is_routed_to_people():
    assert task_for(page(needs_review=False)) is None
    assert task_for(page(needs_review=False), route="HUMAN_ALL").task_type == "DOCUMENT_ANNOTATION"


def test_ambiguous_bindings_become_high_priority_binding_reviews():
    binding = BindingRecord(sku_id="s1", image_id=None, confidence=0.6, is_ambiguous=True, method="grid_alignment")
    task = task_for(page(bindings=[binding], rules=["INV-06:s2"]))
    assert (task.task_type, task.priority) == ("BINDING_REVIEW", PRIORITY_HIGH) and "s1" in task.reason


@pytest.mark.parametrize("kwargs, kind", [
    ({"rules": ["INV-06:s2"]}, "SKU_REVIEW"),
    ({"reasons": ["classification:low confidence"]}, "CLASSIFICATION_REVIEW"),
    ({"reasons": ["classification:low confidence", "unread_codes:4"]}, "SKU_REVIEW"),
    ({"skus": (sku("PENDING_CONFIRMATION"),)}, "SKU_CONFIRM"),
    ({"skus": (), "page_type": "A"}, "FULL_PAGE_ANNOTATION"),
])
def test_each_kind_of_doubt_makes_its_own_task(kwargs, kind):
    task = task_for(page(**kwargs))
    assert task.task_type == kind
    assert task.priority == (PRIORITY_HIGH if kind == "FULL_PAGE_ANNOTATION" else PRIORITY_NORMAL)


def test_a_page_nothing_could_be_read_from_is_annotated_whole_first():
    task = task_for(page(method="final_fallback"))
    assert (task.task_type, task.priority, task.reason) == ("FULL_PAGE_ANNOTATION", PRIORITY_HIGH, "nothing_read")


def test_the_first_pages_title_and_labelled_brand_and_series_are_the_documents_attributes():
    from skuflow_collab.domain.document import global_attributes
    from skuflow_contracts.ir import ParsedPage, TextBlock

    def block(n, text, size):
        return TextBlock(block_id=n, bbox=(0, 20 * n, 100, 20 * n + 10), text=text, lines=[], font_size=size,
                         block_type="paragraph")

    cover = ParsedPage(page=1, width=595, height=842, parser_backend="pymupdf", text_blocks=[
        block(0, "2026 产品目录", 28), block(1, "品牌：欧莱\n系列：XK-Pro", 12), block(2, "Material: 304 steel", 10),
        block(3, "型号：A-1", 10)])
    assert global_attributes(cover) == {"title": "2026 产品目录", "brand": "欧莱", "series": "XK-Pro",
                                        "material": "304 steel"}


def test_a_task_id_is_one_per_reading_and_the_first_readings_is_as_it_always_was():
    assert task_id_of("j", 2, "SKU_REVIEW") == str(uuid.uuid5(uuid.NAMESPACE_URL, "j/2/SKU_REVIEW"))
    assert task_id_of("j", 2, "SKU_REVIEW", generation=1) == str(uuid.uuid5(uuid.NAMESPACE_URL, "j/2/SKU_REVIEW/g1"))
    ids = {task_id_of("j", 2, "SKU_REVIEW", generation, reading) for generation in (0, 1) for reading in (0, 1, 2)}
    assert len(ids) == 6
