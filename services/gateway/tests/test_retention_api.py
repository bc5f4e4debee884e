"""Retention through the gateway on the real Postgres: uploads refused when the disk is full, files
removed after their lifetime (410 after), and a job deleted with its files while a running one is not."""

import asyncio
import contextlib
import uuid

import httpx
import pytest
import sqlalchemy as sa

from skuflow_contracts.codec import decode
from skuflow_contracts.topics import JOB_DELETED
from skuflow_gateway.retention import purge_expired_files
from skuflow_gateway.service import definition
from skuflow_gateway.tables import jobs
from skuflow_platform.auth import mint_token
from skuflow_platform.db import migrate
from skuflow_platform.runtime import build_app
from skuflow_platform.settings import PlatformSettings

SECRET = "gateway-retention-test-secret-long-enough-for-hs256"
PDF = b"%PDF-1.7\n" + b"1 0 obj << >> endobj\n" * 50


@contextlib.asynccontextmanager
async def running(database_url: str, root):
    """The gateway app (as the environment configures it) and a client of a merchant of its own."""
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    app = build_app(definition, PlatformSettings(database_url=database_url, storage_root=root, jwt_secret=SECRET))
    merchant = f"m-{uuid.uuid4().hex[:8]}"
    owner = {"Authorization": f"Bearer {mint_token(user_id='u', merchant_id=merchant, secret=SECRET)}"}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw",
                                 headers=owner) as client:
        yield client, app.state.ctx
    await app.state.ctx.db.close()


@pytest.fixture
async def gateway(database_url, tmp_path):
    async with running(database_url, tmp_path) as found:
        yield found


async def finished_job(client, ctx, days_ago: float) -> str:
    """A job that ended ``days_ago`` with a result and page files."""
    job_id = (await client.post("/api/v1/jobs", files={"file": ("c.pdf", PDF, "application/pdf")})).json()["job_id"]
    result = ctx.storage.put(f"results/{job_id}/result.json", b"{}")
    ctx.storage.put(f"jobs/{job_id}/pages/0001/ir.json", b"{}")
    async with ctx.db.transaction() as conn:
        await conn.execute(jobs.update().where(jobs.c.job_id == job_id).values(
            status="FULL_IMPORTED", result_uri=result, total_pages=1,
            updated_at=sa.func.now() - sa.func.make_interval(0, 0, 0, 0, 0, 0, days_ago * 86400)))
    return job_id


def stored(ctx, job_id: str) -> list:
    return [p for prefix in ("jobs", "results") for p in (ctx.storage.root / prefix / job_id).rglob("*") if p.is_file()]


async def test_uploads_are_refused_while_the_disk_is_full(database_url, tmp_path, monkeypatch):
    monkeypatch.setenv("SKUFLOW_DISK_REFUSE_RATIO", "0.0")  # any disk is "full"
    async with running(database_url, tmp_path) as (client, _):
        refused = await client.post("/api/v1/jobs", files={"file": ("c.pdf", PDF, "application/pdf")})
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "300"
    assert not (tmp_path / "jobs").exists()  # not one byte stored


async def test_files_past_their_lifetime_are_removed_and_the_result_says_so(gateway):
    client, ctx = gateway
    old, recent = await finished_job(client, ctx, days_ago=31), await finished_job(client, ctx, days_ago=2)
    running = (await client.post("/api/v1/jobs", files={"file": ("c.pdf", PDF, "application/pdf")})).json()["job_id"]
    assert await purge_expired_files(ctx, retention_days=30) >= 1
    assert stored(ctx, old) == [] and stored(ctx, recent) != [] and stored(ctx, running) != []
    gone = await client.get(f"/api/v1/jobs/{old}/result")
    assert gone.status_code == 410 and "retention" in gone.json()["detail"]
    assert (await client.get(f"/api/v1/jobs/{recent}/result")).status_code == 200
    assert (await client.get(f"/api/v1/jobs/{old}")).status_code == 200  # the job's rows stay


async def test_a_finished_job_is_deleted_with_its_files_and_a_running_one_is_not(gateway):
    client, ctx = gateway
    done = await finished_job(client, ctx, days_ago=0)
    running = (await client.post("/api/v1/jobs", files={"file": ("c.pdf", PDF, "application/pdf")})).json()["job_id"]
    assert (await client.delete(f"/api/v1/jobs/{running}")).status_code == 409
    stranger = {"Authorization": f"Bearer {mint_token(user_id='s', merchant_id='someone-else', secret=SECRET)}"}
    assert (await client.delete(f"/api/v1/jobs/{done}", headers=stranger)).status_code == 404
    assert (await client.delete(f"/api/v1/jobs/{done}")).status_code == 204
    assert (await client.get(f"/api/v1/jobs/{done}")).status_code == 404
    assert stored(ctx, done) == [] and stored(ctx, running) != []
    async with ctx.db.transaction() as conn:
        notices = [decode(JOB_DELETED.name, body).payload for body in (await conn.execute(
            sa.select(ctx.tables.outbox.c.body).where(ctx.tables.outbox.c.message_key == done,
                                                      ctx.tables.outbox.c.topic == JOB_DELETED.name))).scalars()]
        kept = (await conn.execute(sa.select(ctx.tables.state_transitions.c.detail).where(
            ctx.tables.state_transitions.c.entity_id == f"deleted:{done}"))).scalars().all()
    assert [n.deleted_by for n in notices] == ["u"]  # every other service forgets it on this
    assert kept and kept[0]["by"] == "u"  # the deletion is audited
    assert (await client.delete(f"/api/v1/jobs/{done}")).status_code == 404
