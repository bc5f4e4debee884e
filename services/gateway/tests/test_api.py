"""The gateway API in-process on the real Postgres: what is checked before the body is read,
hard caps while it streams, per-merchant rate limits, validated parameters, and 503 in an outage."""

import asyncio
import io

import httpx
import pytest

from skuflow_gateway.service import definition
from skuflow_platform.auth import mint_token
from skuflow_platform.db import migrate
from skuflow_platform.runtime import build_app
from skuflow_platform.settings import PlatformSettings
from tests.api_examples import example_checks

SECRET = "gateway-api-test-secret-long-enough-for-hs256"
PDF = b"%PDF-1.7\n" + b"1 0 obj << >> endobj\n" * 50


def settings_for(url: str, storage) -> PlatformSettings:
    return PlatformSettings(database_url=url, storage_root=storage, jwt_secret=SECRET)


@pytest.fixture
async def gateway(database_url, tmp_path, monkeypatch):
    monkeypatch.setenv("SKUFLOW_MAX_UPLOAD_MB", "1")
    monkeypatch.setenv("SKUFLOW_UPLOADS_PER_MINUTE", "2")
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    app = build_app(definition, settings_for(database_url, tmp_path / "storage"))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw",
                                 event_hooks=example_checks(app.openapi())) as client:
        yield client, tmp_path / "storage"
    await app.state.ctx.db.close()


def bearer(merchant: str) -> dict:
    return {"Authorization": f"Bearer {mint_token(user_id='u', merchant_id=merchant, secret=SECRET)}"}


def stored_files(root) -> list:
    return [p for p in root.rglob("*") if p.is_file()]


async def test_without_a_token_not_one_byte_of_the_body_is_read_or_stored(gateway):
    client, storage = gateway
    sent = []

    async def body():
        for _ in range(100):
            sent.append(1)
            yield b"x" * 65536

    response = await client.post("/api/v1/jobs", content=body(),
                                 headers={"Content-Type": "multipart/form-data; boundary=b"})
    assert response.status_code == 401 and sent == [] and stored_files(storage) == []


async def test_a_body_over_the_cap_is_cut_off_while_streaming_and_leaves_nothing_behind(gateway):
    client, storage = gateway
    big = b"%PDF-1.7\n" + b"0" * (3 * 1024 * 1024)

    async def chunked():  # no Content-Length: only the streaming cap can stop it
        boundary = b"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.pdf\"\r\n\r\n"
        yield boundary
        for start in range(0, len(big), 65536):
            yield big[start:start + 65536]
        yield b"\r\n--b--\r\n"

    response = await client.post("/api/v1/jobs", content=chunked(), headers={
        **bearer("m-big"), "Content-Type": "multipart/form-data; boundary=b"})
    assert response.status_code == 413 and "1 MB limit" in response.json()["detail"]
    assert stored_files(storage) == []


async def test_a_merchant_over_the_upload_rate_gets_429_with_retry_after(gateway):
    client, _ = gateway
    statuses = []
    for _ in range(3):
        response = await client.post("/api/v1/jobs", headers=bearer("m-rate"),
                                     files={"file": ("c.pdf", io.BytesIO(PDF), "application/pdf")})
        statuses.append(response.status_code)
    assert statuses == [201, 201, 429]
    assert 1 <= int(response.headers["Retry-After"]) <= 61
    other = await client.post("/api/v1/jobs", headers=bearer("m-other"),
                              files={"file": ("c.pdf", io.BytesIO(PDF), "application/pdf")})
    assert other.status_code == 201  # the limit is per merchant


@pytest.mark.parametrize("query", ["limit=-1", "limit=0", "limit=501", "limit=abc"])
async def test_bad_query_parameters_are_422_not_500(gateway, query):
    client, _ = gateway
    response = await client.get(f"/api/v1/jobs?{query}", headers=bearer("m1"))
    assert response.status_code == 422


async def test_while_the_database_is_down_the_api_answers_503_with_retry_after(postgres_proxy, tmp_path,
                                                                               database_url):
    proxy, url = postgres_proxy
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    app = build_app(definition, settings_for(url, tmp_path / "storage"))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw") as client:
        assert (await client.get("/api/v1/jobs", headers=bearer("m1"))).status_code == 200
        await proxy.cut()
        down = await client.get("/api/v1/jobs", headers=bearer("m1"))
        assert down.status_code == 503 and down.headers["Retry-After"] == "5"
        ready = await client.get("/readyz")
        assert ready.status_code == 503 and ready.json()["ready"] is False
        await proxy.start()
        assert (await client.get("/api/v1/jobs", headers=bearer("m1"))).status_code == 200
    await app.state.ctx.db.close()


async def test_login_gives_a_token_with_the_users_merchant_and_roles_and_refuses_alike(gateway):
    from skuflow_gateway.domain.accounts import hash_password
    from skuflow_gateway.tables import users

    client, _ = gateway
    async with client._transport.app.state.ctx.db.transaction() as conn:
        await conn.execute(users.delete())
        for name, disabled in (("ann", False), ("old", True)):
            await conn.execute(users.insert().values(
                user_id=f"u-{name}", merchant_id="m1", username=name, password_hash=hash_password("correct horse 1"),
                roles=["annotator"], disabled=disabled))
    ok = await client.post("/api/v1/auth/login", json={"username": "ann", "password": "correct horse 1"})
    assert ok.status_code == 200 and ok.json()["roles"] == ["annotator"] and ok.json()["merchant_id"] == "m1"
    me = await client.get("/api/v1/auth/me", headers={"Authorization": f"Bearer {ok.json()['access_token']}"})
    assert me.json() == {"user_id": "u-ann", "username": "ann", "merchant_id": "m1", "roles": ["annotator"]}
    refusals = [await client.post("/api/v1/auth/login", json=body) for body in (
        {"username": "ann", "password": "wrong horse 1"}, {"username": "nobody", "password": "correct horse 1"},
        {"username": "old", "password": "correct horse 1"})]
    assert {(r.status_code, r.json()["detail"]) for r in refusals} == {(401, "invalid username or password")}
    jobs = await client.get("/api/v1/jobs", headers={"Authorization": f"Bearer {ok.json()['access_token']}"})
    assert jobs.status_code == 403  # an annotator's token does not upload or list jobs


async def test_the_workbench_origin_may_call_the_login(gateway):
    client, _ = gateway
    preflight = await client.options("/api/v1/auth/login", headers={
        "Origin": "http://127.0.0.1:8006", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type"})
    assert preflight.headers["access-control-allow-origin"] == "http://127.0.0.1:8006"
    other = await client.options("/api/v1/auth/login", headers={
        "Origin": "http://evil.example", "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in other.headers
