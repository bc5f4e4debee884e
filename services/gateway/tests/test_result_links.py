"""The result an API uploader downloads on the real Postgres: every exported image comes with a signed,
expiring link that fetches it without a token, made afresh at each download (the refresh)."""

import asyncio
import json
from datetime import UTC, datetime

import httpx

from skuflow_gateway.api import examples
from skuflow_gateway.service import definition
from skuflow_gateway.tables import jobs
from skuflow_platform.auth import mint_token
from skuflow_platform.db import migrate
from skuflow_platform.runtime import build_app
from skuflow_platform.settings import PlatformSettings
from tests.api_examples import example_checks

SECRET = "gateway-result-links-test-secret-long-enough"
PDF = b"%PDF-1.7\n" + b"1 0 obj << >> endobj\n" * 50


async def test_each_exported_image_of_the_result_has_a_signed_link_that_fetches_it(database_url, tmp_path,
                                                                                  monkeypatch):
    monkeypatch.setenv("SKUFLOW_FILE_LINKS_BASE_URL", "http://gw")
    monkeypatch.setenv("SKUFLOW_FILE_LINKS_TTL_SECONDS", "3600")
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    app = build_app(definition, PlatformSettings(database_url=database_url, storage_root=tmp_path, jwt_secret=SECRET))
    owner = {"Authorization": f"Bearer {mint_token(user_id='u', merchant_id='m-links', secret=SECRET)}"}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw",
                                 event_hooks=example_checks(app.openapi())) as client:
        created = await client.post("/api/v1/jobs", files={"file": ("c.pdf", PDF, "application/pdf")}, headers=owner)
        job_id = created.json()["job_id"]
        storage = app.state.ctx.storage
        stored = {k: v for k, v in examples.RESULT.items() if k != "image_links"}  # as the output service writes it
        result_uri = storage.put(f"results/{job_id}/result.json", json.dumps(stored).encode())
        storage.put(f"results/{job_id}/{examples.PHOTO['path']}", b"\x89PNG the photo")
        async with app.state.ctx.db.transaction() as conn:
            await conn.execute(jobs.update().where(jobs.c.job_id == job_id).values(
                status="FULL_IMPORTED", result_uri=result_uri, total_pages=3))
        answer = await client.get(f"/api/v1/jobs/{job_id}/result", headers=owner)
        assert answer.status_code == 200
        result = answer.json()
        [link] = result["image_links"]  # the logo is a duplicate: not exported, no link
        assert link["image_id"] == examples.PHOTO["image_id"]
        lasts = datetime.fromisoformat(link["expires_at"]) - datetime.now(UTC)
        assert 3590 < lasts.total_seconds() <= 3600
        fetched = await client.get(link["url"])  # no token: the signature is the credential
        assert (fetched.status_code, fetched.content) == (200, b"\x89PNG the photo")
        assert {k: v for k, v in result.items() if k != "image_links"} == stored
    await app.state.ctx.db.close()
