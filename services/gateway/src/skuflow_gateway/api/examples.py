"""Examples of what the gateway's endpoints answer, for its OpenAPI document (``skuflow_platform.openapi``).

Each is the body an endpoint really returns for one job read end to end (a 3-page catalog routed
AUTO): the same fields and nesting, with plausible values. tests/integration/test_openapi_examples.py
validates the contract-shaped ones against their models, and the API tests compare every real
answer's fields with these.
"""

JOB_ID = "3f2c9d4e-0c1b-4b7e-9a51-2f6f1c0d9e11"
OTHER_JOB_ID = "8a41d7c2-5e9f-4f0a-b3c6-71d2e0f4a958"
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
FILE_HASH = "d7e3bd5827e90dd1cfcf34cab7423f341bae28143f2562a52aa45c99d7fa3f0b"
MERCHANT_ID = "m-acme"
USER_ID = "0b6f4c1e-2d3a-4e5f-8a9b-1c2d3e4f5a6b"
INVITED_ID = "fbd83abf-c0ee-4288-b548-498050499d13"
AT = "2026-03-02T09:14:07.512388+00:00"
CONFIG_VERSION = "m-acme:furniture:v2"
READER_VERSION = "reader-5e0c1b7a24"  # the learned reader's artifact (skuflow train)

# auth and users

SESSION = {
    "access_token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIwYjZmNGMxZSJ9.Hc3e6_QcEIDFzNAuNRlCk5pkzMXXl68_vUT",
    "token_type": "bearer", "expires_in": 3600,
    "refresh_token": "6YhH-iwi1MvNLvrNHNWdV4gQ0rYFkViC-MJ-4AAIoNE", "refresh_expires_in": 1209600,
    "user_id": USER_ID, "username": "ann", "merchant_id": MERCHANT_ID, "roles": ["uploader", "ops"],
}
ME = {"user_id": USER_ID, "username": "ann", "merchant_id": MERCHANT_ID, "roles": ["uploader", "ops"]}
USER = {"user_id": INVITED_ID, "username": "lea", "roles": ["team_lead"], "disabled": False,
        "invitation_pending": False, "created_at": AT}
USERS = {"users": [{"user_id": USER_ID, "username": "ann", "roles": ["admin", "uploader"], "disabled": False,
                    "invitation_pending": False, "created_at": "2026-01-12T08:00:31.102944+00:00"}, USER]}
DISABLED_USER = {**USER, "disabled": True}
INVITED = {**USER, "invitation_pending": True, "invite_token": "oZzLuVwLhxu-2uU40yZX-L0IYH4xALr6-LFt46sTjX0",
           "invite_expires_in": 259200}

# jobs

CREATED_JOB = {"job_id": JOB_ID, "status": "EVALUATING", "user_status": "processing", "file_hash": FILE_HASH}
JOB_TIMES = {"created_at": "2026-03-02T09:13:58.204117+00:00", "updated_at": "2026-03-02T09:14:07.512388+00:00",
             "completed_at": "2026-03-02T09:14:07.512388+00:00"}
JOBS = [{"job_id": JOB_ID, "filename": "spring-catalog.pdf", "status": "FULL_IMPORTED", "user_status": "completed",
         **JOB_TIMES},
        {"job_id": OTHER_JOB_ID, "filename": "lighting-2026.pdf", "status": "PROCESSING",
         "user_status": "processing", "created_at": "2026-03-02T09:15:40.027761+00:00",
         "updated_at": "2026-03-02T09:15:52.901342+00:00", "completed_at": None}]
JOB = {
    "job_id": JOB_ID, "filename": "spring-catalog.pdf", "status": "FULL_IMPORTED", "user_status": "completed",
    "route": "AUTO", "total_pages": 3, "completed_pages": 3, "progress_percent": 100.0, "sku_count": 14,
    "action_hint": "downloadable", "degrade_reason": None, "error_message": None, "warnings": [],
    "llm_cost_usd": 0.0, "result_available": True, "delivery_stopped": False, "config_version": CONFIG_VERSION,
    "generation": 0, **JOB_TIMES,
    "trace_id": TRACE_ID, "trace_url": f"https://tempo.example.com/trace/{TRACE_ID}",  # SKUFLOW_TRACE_UI_URL
}
WEIGHTS = {"image_quality": 0.2, "layout_quality": 0.3, "text_readability": 0.35, "structure_consistency": 0.15}
EVALUATED = {
    "job_id": JOB_ID, "route": "AUTO", "c_doc": 0.9467, "route_reason": "C_doc=0.95, A=0.85, B=0.40 → AUTO",
    "degrade_reason": None, "prescan_penalties": [],
    "prescan_metrics": {"blank_pages": 0.0, "text_char_count": 479.0, "text_layer_rate": 1.0,
                        "pages_with_pictures": 1.0},
    "blank_pages": [],
    "dimension_scores": {"image_quality": 1.0, "layout_quality": 0.8224, "text_readability": 1.0,
                         "structure_consistency": 1.0},
    "weights_snapshot": WEIGHTS, "thresholds": {"A": 0.85, "B": 0.4, "PV": 0.6},
    "sampling": {"pages": [1, 2, 3], "variance": 0.0281}, "page_scores": {"1": 0.7, "2": 0.9857, "3": 0.9946},
    "review_pages": {}, "model_used": "deterministic", "llm_cost_usd": 0.0,
}
EVALUATION_FAILED = {
    "job_id": OTHER_JOB_ID, "route": None, "c_doc": None, "status": "EVAL_FAILED",
    "route_reason": "The document could not be evaluated; please re-export it and upload again",
    "degrade_reason": "eval_failed",
}

# one page's reading, as the binder stores it and the result exports it (without source_uri)

SKU = {
    "sku_id": "d7e3bd58_p02_001", "validity": "valid",
    "attributes": {"model": "SF-0001", "product_name": "Bamboo fibre plate", "size": "28cm",
                   "material": "bamboo fibre", "color": None, "price": "159.50"},
    "custom_attributes": {}, "source_bbox": [40.0, 298.43, 140.0, 365.02], "confidence": 0.85,
    "quality_warning": None, "status": "IMPORT_READY", "raw_attributes": {}, "attribute_source": {},
    "variant_group": None, "origin": "card",
}
LOGO = {"image_id": "img_d7e3bd58_p02_001", "bbox": [30.0, 20.0, 90.0, 40.0], "role": "LOGO", "path": None,
        "short_edge": 40, "is_duplicate": True, "quality_warning": "low_resolution"}
PHOTO = {"image_id": "img_d7e3bd58_p02_002", "bbox": [40.0, 90.0, 260.0, 290.0], "role": "PRODUCT_MAIN",
         "path": "images/img_d7e3bd58_p02_002.png", "short_edge": 660, "is_duplicate": False,
         "quality_warning": None}
EXPORTED_READING = {
    "page": 2, "status": "AI_COMPLETED", "page_type": "C", "layout": "L2", "needs_review": False,
    "parser_backend": "pymupdf", "extraction_method": "two_stage", "fallback_reason": None, "review_reasons": [],
    "skus": [SKU], "images": [LOGO, PHOTO],
    "bindings": [{"sku_id": SKU["sku_id"], "image_id": PHOTO["image_id"], "confidence": 0.9157,
                  "is_ambiguous": False, "method": "grid_alignment", "candidates": []}],
    "validation": {"triggered_rules": [], "has_errors": False},
    "reader_version": READER_VERSION, "reading_confidence": 0.93,
}
READING = {**EXPORTED_READING, "images": [
    {**image, "source_uri": f"local://jobs/{JOB_ID}/pages/0002/images/{image['image_id']}.png"}
    for image in EXPORTED_READING["images"]]}
RESULT = {"schema_version": 1,
          "job": {"job_id": JOB_ID, "file_hash": FILE_HASH, "route": "AUTO", "status": "FULL_IMPORTED",
                  "total_pages": 3, "config_version": CONFIG_VERSION,
                  "reader_version": READER_VERSION},
          "pages": [EXPORTED_READING],
          "image_links": [{"image_id": PHOTO["image_id"], "expires_at": "2026-03-09T09:14:07Z", "url": (
              f"http://127.0.0.1:8000/api/v1/files?uri=local%3A%2F%2Fresults%2F{JOB_ID}%2Fimages%2F"
              f"{PHOTO['image_id']}.png&expires=1773047647&"
              "signature=237a4cf9f3f6b1d95ea96d648a64fa20a9a0b2996eae9a8a1e0407f24f41a032")}]}

# a job as it runs

PROGRESS = {
    "job_id": JOB_ID, "status": "PROCESSING", "user_status": "processing", "total_pages": 3, "completed_pages": 1,
    "current_phase": "processing", "phase_detail": "Processing page 2/3", "estimated_remaining_sec": 4,
    "page_breakdown": {"ai_completed": 1, "ai_processing": 1, "pending": 1}, "completed_skus": None,
    "import_breakdown": {"imported_confirmed": 1},
}
EVENTS = (
    "retry: 2000\n\n"
    "id: 4\nevent: status\n"
    'data: {"status": "PROCESSING", "trigger": "ai_route", "previous": "EVALUATED"}\n\n'
    "id: 5\nevent: page_started\n"
    'data: {"phase": "ai_processing", "page_no": 1}\n\n'
    "id: 7\nevent: page_completed\n"
    'data: {"status": "AI_COMPLETED", "page_no": 1, "skus_found": 0, "needs_review": false}\n\n'
    "id: 13\nevent: job_completed\n"
    'data: {"status": "FULL_IMPORTED", "total_skus": 14, "failed_pages": []}\n\n'
)
SUMMARY = {"page": 2, "status": "AI_COMPLETED", "revision": 1, "error": None, "import_status": "IMPORTED_CONFIRMED",
           "page_type": "C", "layout": "L2", "needs_review": False, "review_reasons": [], "reasons": [], "sku_count": 4}
PAGES = {"job_id": JOB_ID, "total_pages": 3, "pages": [
    {**SUMMARY, "page": 1, "import_status": None, "page_type": "D", "layout": None, "sku_count": 0}, SUMMARY,
    {**SUMMARY, "page": 3, "status": "DEAD_LETTER", "error": "classifier: ValueError: unreadable page",
     "import_status": None, "page_type": None, "layout": None, "sku_count": 0}]}
PAGE = {**SUMMARY, "sku_count": 1, "result": READING,
        "screenshot_url": f"/api/v1/jobs/{JOB_ID}/pages/2/screenshot"}
SKUS = {"job_id": JOB_ID, "total": 14, "offset": 0, "limit": 2, "skus": [
    {"sku_id": "d7e3bd58_p02_001", "page": 2, "validity": "valid", "confidence": 0.85, **SKU["attributes"],
     "custom_attributes": {}, "image_id": "img_d7e3bd58_p02_002", "needs_review": False},
    {"sku_id": "d7e3bd58_p02_002", "page": 2, "validity": "valid", "confidence": 0.85, "model": "SF-0002",
     "product_name": "Glass tumbler", "size": "350ml", "material": "borosilicate glass", "color": None,
     "price": "449.50", "custom_attributes": {}, "image_id": "img_d7e3bd58_p02_003", "needs_review": False}]}
SKUS_CSV = ("sku_id,page,validity,confidence,model,product_name,size,material,color,price,image_id,needs_review\n"
            "d7e3bd58_p02_001,2,valid,0.85,SF-0001,Bamboo fibre plate,28cm,bamboo fibre,,159.50,"
            "img_d7e3bd58_p02_002,False\n"
            "d7e3bd58_p02_002,2,valid,0.85,SF-0002,Glass tumbler,350ml,borosilicate glass,,449.50,"
            "img_d7e3bd58_p02_003,False\n")

# controlling a job

CANCELLED = {"job_id": OTHER_JOB_ID, "status": "CANCELLED", "delivery_stopped": True, "delivered_skus": 6}
CANCEL_UNCONFIRMED = {**CANCELLED, "delivery_stopped": False, "delivered_skus": None}
REPROCESSED = {"job_id": JOB_ID, "status": "PROCESSING", "config_version": CONFIG_VERSION, "generation": 1, "pages": 3}
LETTER = {"offset": 17, "partition": 2, "key": f"{JOB_ID}/3", "original_topic": "skuflow.page.parsed.v1",
          "error": "unreadable page", "failed_by": "classifier", "attempts": "3"}
DEAD_LETTERS = {"job_id": JOB_ID, "dead_letters": [LETTER]}
REPLAYED = {"job_id": JOB_ID, "replayed": [LETTER]}
RETRIED = {"job_id": JOB_ID, "status": "PROCESSING", "retried_pages": [3]}

# threshold profiles

SETTINGS = {
    "version": CONFIG_VERSION, "category": "furniture",
    "confidence_weights": {"text": 0.4, "structure": 0.3, "image": 0.3},
    "classification": {"a_threshold": 0.85, "b_threshold": 0.4, "pv_threshold": 0.6, "margin_share": 0.08,
                       "decoration_area_share": 0.01, "page_type_min_confidence": 0.7},
    "extraction": {"row_tolerance": 4.0, "sku_min_confidence": 0.7, "two_stage_invalid_threshold": 0.3,
                   "required_attribute_keys": ["model", "product_name", "size", "material", "color", "price"]},
    "binding": {"top_k": 3, "ambiguity_gap": 0.25, "default_distance_threshold": 150.0,
                "distance_thresholds": {"L1": 200.0, "L2": 100.0, "L3": 150.0, "L4": 80.0}},
    "evaluation": {"ocr_dpi": 200, "llm_share": 0.5, "sample_size": 20, "llm_screenshots": 6,
                   "full_sample_below": 40, "score_variance_threshold": 0.03, "dimension_weights": WEIGHTS,
                   "prescan": {"all_blank_reject": True, "min_text_chars_for_blank": 10,
                               "ocr_rate_penalty_threshold": 0.1, "ocr_rate_penalty_weight": 0.15,
                               "no_images_penalty_weight": 0.1}},
    "category_schemas": [{"category": "furniture", "required_fields": ["model", "price"],
                          "optional_fields": ["material"],
                          "validation_rules": [{"name": "price_range", "rule_type": "range_check",
                                                "params": {"field": "price", "min": 1, "max": 100000},
                                                "severity": "warning"}]}],
    "review_on_warning": True,
}
HEAD = {"profile_id": "furniture", "category": "furniture", "active_version": "v2", "expected_version": "v2",
        "is_default": True, "config_version": CONFIG_VERSION}
PROFILES = {"profiles": [HEAD], "builtin": "v1"}
PROFILE_CREATED = {"profile_id": "furniture", "version": "v1", "config_version": "m-acme:furniture:v1"}
PROFILE = {**HEAD, "settings": SETTINGS, "versions": [
    {"version": "v1", "previous_version": None, "config_version": "m-acme:furniture:v1", "created_by": USER_ID,
     "change_reason": None, "created_at": "2026-02-20T10:02:44.130271+00:00"},
    {"version": "v2", "previous_version": "v1", "config_version": CONFIG_VERSION, "created_by": USER_ID,
     "change_reason": "furniture needs a price", "created_at": AT}]}
NEW_VERSION = {"profile_id": "furniture", "version": "v2", "changed": True, "previous_version": "v1",
               "config_version": CONFIG_VERSION}
CATEGORIES = {"profile_id": "furniture", "category": "furniture", "expected_version": "v2",
              "categories": SETTINGS["category_schemas"]}
ROLLED_BACK = {"profile_id": "furniture", "active_version": "v1", "rolled_back": "v2",
               "config_version": "m-acme:furniture:v1"}
CHANGE = {"profile_id": "furniture", "action": "update", "by": USER_ID, "from_version": "v1", "to_version": "v2",
          "reason": "furniture needs a price", "at": AT}
CREATION = {**CHANGE, "action": "create", "from_version": None, "to_version": "v1", "reason": None,
            "at": "2026-02-20T10:02:44.130271+00:00"}
PROFILE_AUDIT = {"profile_id": "furniture", "changes": [CREATION, CHANGE]}
AUDIT_LOG = {"changes": [CHANGE, CREATION]}

# the operators' back office

DASHBOARD = {"today": {"uploads": 12, "skus": 418}, "jobs_by_status": {"FULL_IMPORTED": 9, "PROCESSING": 2,
                                                                       "PARTIAL_FAILED": 1},
             "active_jobs": 3, "pages_of_active_jobs": {"ai_completed": 31, "ai_processing": 2, "dead_letter": 1,
                                                        "human_queued": 2, "pending": 6},
             "imports_of_active_jobs": {"imported_confirmed": 29, "import_failed": 1}, "waiting_for_people": 2}
IN_FLIGHT = {
    "jobs": [{"job_id": JOB_ID, "filename": "catalog-2026.pdf", "status": "PROCESSING", "user_status": "processing",
              "created_at": "2026-03-02T09:10:02.118224+00:00", "total_pages": 12,
              "pages": {"ai_completed": 7, "ai_processing": 2, "human_queued": 1, "pending": 2},
              "waiting_for_people": 1}],
    "dead_letters": {"pages": 1, "jobs": [{"job_id": OTHER_JOB_ID, "filename": "price-list.pdf", "pages": [3]}]}}
STUCK = {"minutes": 30.0, "pages": [{"job_id": OTHER_JOB_ID, "page": 7, "idle_seconds": 2712}]}
BATCH_RETRY = {"jobs": {JOB_ID: {"retried_pages": [3]},
                        OTHER_JOB_ID: {"refused": 409, "reason": f"job {OTHER_JOB_ID} has no failed page"}}}


def _trace() -> dict:
    """Page 2's trace bundle as downloaded, built from the contracts (and redacted) so it stays one."""
    from skuflow_contracts.profile import profile_for
    from skuflow_contracts.results import PageClassification, PageResult
    from skuflow_contracts.traces import (
        BindingTrace,
        ClassificationTrace,
        ExtractionOutcome,
        ExtractionTrace,
        PageInputs,
        PageTraceBundle,
        ReaderCandidate,
        ReaderStages,
        StageTiming,
    )
    from skuflow_gateway.domain.traces import exported

    def timing(ms: float) -> StageTiming:
        return StageTiming(started_at=AT, elapsed_ms=ms, waited_ms=4.2)

    reading, base = PageResult.model_validate(READING), {"job_id": JOB_ID, "page": 2}
    classification = PageClassification(page_type="C", page_type_confidence=0.86, layout="L2", reason="image_grid",
                                        image_roles={LOGO["image_id"]: "LOGO", PHOTO["image_id"]: "PRODUCT_MAIN"},
                                        detail={"image_area_ratio": 0.41, "text_density": 0.12, "scores": {"C": 0.86}})
    candidate = ReaderCandidate(kind="code", key="SF-0001", cell=3, sources=["cell", "engine"], price="159.50",
                                probability=0.85, taken=True)
    return exported(PageTraceBundle(
        **base, redacted=False,
        classification=ClassificationTrace(
            **base, file_hash=FILE_HASH, config_version="v1", profile=profile_for("v1"), classification=classification,
            inputs=PageInputs(ir_uri=f"local://jobs/{JOB_ID}/pages/0002/page.json", ir_sha256=FILE_HASH,
                              parser_backend="pymupdf", status="ok",
                              image_uris=[image["source_uri"] for image in READING["images"]],
                              image_hashes={LOGO["image_id"]: "9c1e…", PHOTO["image_id"]: "b4d2…"}),
            timing=timing(6.1)),
        extraction=ExtractionTrace(
            **base, layout="t:02.14", extraction=ExtractionOutcome(
                method="two_stage", reader_version=READER_VERSION, confidence=0.93, skus=reading.skus),
            reader=ReaderStages(reader_version=READER_VERSION, cells=38, rows=12, rules_method="two_stage",
                                rules_skus=1, take=0.42, review_below=0.8, candidates=[candidate]),
            timing=timing(48.7)),
        binding=BindingTrace(**base, seen_images=[], result=reading, timing=timing(3.9))))


TRACE = _trace()
