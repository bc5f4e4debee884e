"""A page's trace bundle through the gateway on the real Postgres: the owner downloads it redacted,
another merchant's caller finds no such job, a wrong token is refused, a page nobody recorded gets a
404 that says why, and deleting the job removes its traces."""

import asyncio
from datetime import UTC, datetime

import httpx

from skuflow_contracts.profile import profile_for
from skuflow_contracts.results import PageClassification, PageResult, SkuAttributes, SkuRecord
from skuflow_contracts.traces import (
    BindingTrace,
    ClassificationTrace,
    ExtractionOutcome,
    ExtractionTrace,
    PageInputs,
    StageTiming,
)
from skuflow_gateway.service import definition
from skuflow_gateway.tables import jobs
from skuflow_platform.auth import mint_token
from skuflow_platform.db import migrate
from skuflow_platform.runtime import build_app
from skuflow_platform.settings import PlatformSettings
from skuflow_platform.storage import SCHEME
from tests.api_examples import example_checks

SECRET = "gateway-page-trace-test-secret-long-enough"
PDF = b"%PDF-1.7\n" + b"1 0 obj << >> endobj\n" * 50


def records(job_id: str, page: int) -> list:
    timing = StageTiming(started_at=datetime.now(UTC), elapsed_ms=3.5, waited_ms=1.0)
    sku = SkuRecord(sku_id=f"abcdef01_p{page:02d}_001", validity="valid", confidence=0.91,
                    attributes=SkuAttributes(model="KX-100", product_name="Kettle, orders 13812345678", price="128.00"),
                    source_bbox=(10, 10, 200, 30))
    classification = PageClassification(page_type="A", page_type_confidence=0.9, layout="L1", reason="table_rows")
    return [
        ClassificationTrace(job_id=job_id, page=page, file_hash="f" * 64, config_version="v1",
                            profile=profile_for("v1"),
                            inputs=PageInputs(ir_uri=f"local://jobs/{job_id}/pages/{page:04d}/page.json",
                                              ir_sha256="a" * 64, parser_backend="pymupdf", status="ok"),
                            classification=classification, timing=timing),
        ExtractionTrace(job_id=job_id, page=page, extraction=ExtractionOutcome(method="table_rule", skus=[sku])),
        BindingTrace(job_id=job_id, page=page, timing=timing, result=PageResult(
            page=page, status="AI_COMPLETED", page_type="A", layout="L1", needs_review=False,
            parser_backend="pymupdf", extraction_method="table_rule", skus=[sku])),
    ]


async def test_the_owner_downloads_a_page_trace_redacted_and_nobody_else_does(database_url, tmp_path, wrong_tokens):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    app = build_app(definition, PlatformSettings(database_url=database_url, storage_root=tmp_path, jwt_secret=SECRET))
    owner = {"Authorization": f"Bearer {mint_token(user_id='u', merchant_id='m-trace-a', secret=SECRET)}"}
    stranger = {"Authorization": f"Bearer {mint_token(user_id='v', merchant_id='m-trace-b', secret=SECRET)}"}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw",
                                 event_hooks=example_checks(app.openapi())) as client:
        job_id = (await client.post("/api/v1/jobs", files={"file": ("c.pdf", PDF, "application/pdf")},
                                    headers=owner)).json()["job_id"]
        storage = app.state.ctx.storage
        result_uri = storage.put(f"results/{job_id}/result.json", b"{}")
        async with app.state.ctx.db.transaction() as conn:
            await conn.execute(jobs.update().where(jobs.c.job_id == job_id).values(
                status="FULL_IMPORTED", result_uri=result_uri, total_pages=3))
        for record in records(job_id, 2):
            storage.put(record.key, record.to_bytes())
        url = f"/api/v1/jobs/{job_id}/pages/2/trace"

        answer = await client.get(url, headers=owner)
        assert answer.status_code == 200
        assert answer.headers["content-disposition"] == f'attachment; filename="{job_id}-page-002-trace.json"'
        bundle = answer.json()
        [sku] = bundle["extraction"]["extraction"]["skus"]
        assert bundle["redacted"] and bundle["job_id"] == job_id and bundle["notes"] == []
        assert sku["attributes"] == {"model": "KX-100", "product_name": "Kettle, orders ***", "price": "***",
                                     "size": None, "material": None, "color": None}
        assert bundle["binding"]["result"]["skus"][0]["attributes"]["price"] == "***"
        assert bundle["classification"]["inputs"]["ir_uri"] == f"local://jobs/{job_id}/pages/0002/page.json"

        assert (await client.get(url, headers=stranger)).status_code == 404
        for name, token in wrong_tokens(SECRET, "m-trace-a").items():
            assert (await client.get(url, headers={"Authorization": f"Bearer {token}"})).status_code == 401, name
        nothing = await client.get(f"/api/v1/jobs/{job_id}/pages/3/trace", headers=owner)
        assert nothing.status_code == 404 and "no stage recorded it" in nothing.json()["detail"]
        beyond = await client.get(f"/api/v1/jobs/{job_id}/pages/4/trace", headers=owner)
        assert beyond.status_code == 404 and "has no page 4" in beyond.json()["detail"]

        assert (await client.delete(f"/api/v1/jobs/{job_id}", headers=owner)).status_code == 204
        assert not any(storage.path(SCHEME + record.key).exists() for record in records(job_id, 2))
        assert (await client.get(url, headers=owner)).status_code == 404
    await app.state.ctx.db.close()
