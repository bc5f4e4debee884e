"""The classifier's record of a page for its trace bundle (``skuflow_contracts.traces``): the page's
inputs (its IR by key and hash, its images by key and hash), the profile every stage reads it with,
and the classification with its detail (features, scores, thresholds, reason)."""

from __future__ import annotations

from skuflow_contracts.events import PageWork
from skuflow_contracts.ir import ParsedPage
from skuflow_contracts.profile import ThresholdProfile
from skuflow_contracts.results import PageClassification
from skuflow_contracts.traces import ClassificationTrace, ModelUse, PageInputs, StageTiming
from skuflow_llm.pages import Spent
from skuflow_platform.storage import sha256_hex


def classification_trace(job_id: str, work: PageWork, ir: bytes, page: ParsedPage, profile: ThresholdProfile,
                         classification: PageClassification, spent: Spent, timing: StageTiming) -> ClassificationTrace:
    inputs = PageInputs(ir_uri=work.ir_uri, ir_sha256=sha256_hex(ir), parser_backend=page.parser_backend,
                        status=page.status, screenshot_uri=page.screenshot_uri,
                        image_hashes={image.image_id: image.content_hash for image in page.images},
                        image_uris=[image.uri for image in page.images if image.uri])
    return ClassificationTrace(job_id=job_id, page=work.page, generation=work.generation, file_hash=work.file_hash,
                               config_version=work.config_version, inputs=inputs, profile=profile,
                               classification=classification, model=ModelUse(calls=spent.calls,
                                                                             cost_usd=spent.cost_usd),
                               timing=timing)
