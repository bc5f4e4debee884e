"""Examples of what collab's task API answers, for its OpenAPI document (``skuflow_platform.openapi``).

Each is the body an endpoint really returns for a binding review of page 2 of a job (the same
fields and nesting, with plausible values). tests/integration/test_openapi_examples.py validates
the page reading against its model, and the API tests compare every real answer's fields with these.
"""

TASK_ID = "29e39e3e-4743-57ee-84fc-a1db3d0d11fc"
OTHER_TASK_ID = "e0ec9d62-5cdc-502a-88cb-10cfda655170"
JOB_ID = "3f2c9d4e-0c1b-4b7e-9a51-2f6f1c0d9e11"
SKU_ID = "d7e3bd58_p02_001"
LOCKED_UNTIL = "2026-03-02T09:19:12.370584+00:00"

TASK = {
    "task_id": TASK_ID, "job_id": JOB_ID, "page": 2, "task_type": "BINDING_REVIEW", "status": "CREATED",
    "priority": 1, "sla_level": "HIGH", "reason": f"ambiguous image binding for {SKU_ID}",
    "created_at": "2026-03-02T09:12:40.711429+00:00", "locked_by": None, "lock_expires_at": None,
    "rework_count": 0, "difficulty": 0.55, "skip_reason": None,
    "reasons": [{"code": "ambiguous_binding", "detail": SKU_ID, "en": "Which picture belongs to 1 product is unclear",
                 "zh": "1 个产品与图片的对应关系不明确"}],
}
LOCKED = {**TASK, "status": "PROCESSING", "locked_by": "ann", "lock_expires_at": LOCKED_UNTIL}
TASKS = {"total": 2, "tasks": [TASK, {**TASK, "task_id": OTHER_TASK_ID, "page": 3, "task_type": "SKU_REVIEW",
                                      "priority": 2, "sla_level": "NORMAL",
                                      "reason": "low confidence", "difficulty": 0.3,
                                      "reasons": [{"code": "low_confidence", "detail": None,
                                                   "en": "The reading is not confident enough",
                                                   "zh": "识别结果置信度不足"}]}]}

# the page reading a person is asked to correct: one SKU, two photos it may belong to
READING = {
    "page": 2, "status": "HUMAN_QUEUED", "page_type": "C", "layout": "L2", "needs_review": True,
    "parser_backend": "pymupdf", "extraction_method": "two_stage", "fallback_reason": None,
    "review_reasons": ["ambiguous_binding"],
    "skus": [{"sku_id": SKU_ID, "validity": "valid",
              "attributes": {"model": "SF-0001", "product_name": "Glass tumbler", "size": "350ml",
                             "material": "borosilicate glass", "color": None, "price": "9.90"},
              "custom_attributes": {}, "source_bbox": [50.0, 100.0, 300.0, 120.0], "confidence": 0.55,
              "quality_warning": None, "status": "IMPORT_READY", "raw_attributes": {}, "attribute_source": {},
              "variant_group": None, "origin": "card"}],
    "images": [{"image_id": f"img_d7e3bd58_p02_00{n}", "bbox": [300.0, 100.0 + 50 * n, 350.0, 140.0 + 50 * n],
                "role": "PRODUCT_MAIN", "path": None, "short_edge": 400, "is_duplicate": False,
                "quality_warning": None,
                "source_uri": f"local://jobs/{JOB_ID}/pages/0002/images/img_d7e3bd58_p02_00{n}.png"}
               for n in (1, 2)],
    "bindings": [{"sku_id": SKU_ID, "image_id": None, "confidence": 0.5, "is_ambiguous": True, "method": "grid",
                  "candidates": [{"image_id": "img_d7e3bd58_p02_001", "confidence": 0.5},
                                 {"image_id": "img_d7e3bd58_p02_002", "confidence": 0.48}]}],
    "validation": {"triggered_rules": [], "has_errors": False},
    "reader_version": "reader-5e0c1b7a24", "reading_confidence": 0.41,  # the reader: skuflow train
}
IMAGE_URL = f"/api/v1/tasks/{TASK_ID}/page-image"
DETAIL = {
    **TASK, "result": READING, "page_size": [595.0, 842.0],
    "text_blocks": [{"bbox": [50.0, 100.0, 300.0, 120.0], "text": "SF-0001 Glass tumbler 350ml"}],
    "words": [{"bbox": [50.0, 100.0, 92.0, 120.0], "text": "SF-0001"}, {"bbox": [96.0, 100.0, 130.0, 120.0],
                                                                         "text": "Glass"}],
    "page_image_url": IMAGE_URL,
    "context_pages": {"previous": f"{IMAGE_URL}?offset=-1", "next": f"{IMAGE_URL}?offset=1"},
    "doc_global_attributes": {"title": "ACME Kitchen 2026", "brand": "ACME"}, "rework": None,
    # issue 42: the reader's re-read of the page after page 1's correction; correcting this page will be
    # applied to the job's 11 other open pages of its layout
    "reading": 1, "adapted_from": {"job_id": JOB_ID, "page": 1, "task_id": OTHER_TASK_ID}, "similar_pages": 11,
}
# a task a team lead reverted: the redo starts from the page as the undone correction left it
REWORK_DETAIL = {**DETAIL, "rework_count": 1, "rework": {
    "count": 1, "reason": "the price is the 10-pack's, not the single tumbler's",
    "reverted_at": "2026-03-02T10:02:11.504211+00:00", "reverted_by": "lea", "previous_annotator": "ann",
    "previous_correction": {"edited": [{"sku_id": SKU_ID, "attributes": {"price": {"before": "9.90", "after": "99.00"}},
                                        "image_id": {"before": None, "after": "img_d7e3bd58_p02_001"}}]}}}
HEARTBEAT = {"task_id": TASK_ID, "lock_expires_at": LOCKED_UNTIL, "lock_seconds": 120.0}
COMPLETED = {**TASK, "status": "COMPLETED", "annotations": ["BINDING_CORRECTION", "SKU_ATTRIBUTE_CORRECTION"]}
SKIPPED = {**TASK, "status": "SKIPPED", "skip_reason": "the page is a cover, not a product page"}
REVERTED = {**TASK, "rework_count": 1}

# the ops back office

PROFILE = {"annotator": "ann", "total_tasks": 42, "accuracy": 0.93, "avg_duration_sec": 74.2, "open_tasks": 1}
ANNOTATORS = {"window_days": 30, "annotators": [{**PROFILE, "annotator": "0b7c6f1e-5a2d-4c1e-9f3a-7d2b8e4c6a10",
                                                 "name": "ann"}]}
BACKLOG = {"open_tasks": 4, "by_status": {"CREATED": 2, "ESCALATED": 1, "PROCESSING": 1},
           "by_age": [{"from_minutes": 0, "to_minutes": 15, "tasks": 2},
                      {"from_minutes": 15, "to_minutes": 30, "tasks": 0},
                      {"from_minutes": 30, "to_minutes": 120, "tasks": 1},
                      {"from_minutes": 120, "to_minutes": 180, "tasks": 0},
                      {"from_minutes": 180, "to_minutes": None, "tasks": 1}],
           "jobs": [{"job_id": JOB_ID, "open_tasks": 3, "oldest_minutes": 187.5},
                    {"job_id": "7b1e4c2a-93d0-4f6e-8a25-c04f1d9e3b77", "open_tasks": 1, "oldest_minutes": 4.2}]}
STATS = {"annotator": "ann", "window_days": 30, "profile": PROFILE,
         "by_task_type": {"BINDING_REVIEW": {"completed": 30, "skipped": 1, "reworked": 2, "avg_duration_sec": 61.5},
                          "SKU_REVIEW": {"completed": 12, "skipped": 0, "reworked": 1, "avg_duration_sec": 106.8}},
         "last_finished_at": "2026-03-02T08:57:31.108439Z"}
BATCH_SKIPPED = {"tasks": {TASK_ID: {"status": "SKIPPED"},
                           OTHER_TASK_ID: {"refused": 409, "reason": "a PROCESSING task cannot 'batch_skip'"}}}
BATCH_REASSIGNED = {"tasks": {TASK_ID: {"status": "CREATED"},
                              OTHER_TASK_ID: {"refused": 404, "reason": "no such task"}}}
