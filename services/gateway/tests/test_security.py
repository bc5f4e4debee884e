"""Every gateway endpoint × every way a caller can be wrong, in one table: no token, a token signed
with alg=none, a tampered signature, an expired token (401); a caller without an uploader's role
(403); another merchant's job or profile (404, indistinguishable from a missing one). Endpoints are read from
the app's own OpenAPI document, so a new endpoint is covered without being listed here."""

import asyncio

import httpx
import pytest
from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_gateway.service import definition
from skuflow_gateway.tables import users
from skuflow_platform.auth import mint_token
from skuflow_platform.db import migrate
from skuflow_platform.runtime import build_app
from skuflow_platform.settings import PlatformSettings
from skuflow_platform.signed_urls import signed_url
from tests.api_examples import example_checks

SECRET = "gateway-security-test-secret-long-enough-for-hs256"
PDF = b"%PDF-1.7\n" + b"1 0 obj << >> endobj\n" * 50
# before a login, or with a secret of their own instead of a bearer token
PUBLIC = {("post", f"/api/v1/auth/{name}") for name in ("login", "refresh", "logout", "accept-invite")}
PROFILE = "security-table"
# a valid body where one is required, so that the ownership check is reached
BODIES = {("put", "/api/v1/config/profiles/{profile_id}"): {"expected_version": "v1", "settings": {}},
          ("put", "/api/v1/config/profiles/{profile_id}/categories/{category}"): {"expected_version": "v1"},
          ("patch", "/api/v1/auth/users/{user_id}"): {"roles": ["annotator"]},
          ("patch", "/api/v1/auth/users/{user_id}/status"): {"disabled": False}}
USER = "security-table-user"
SIGNED = {("get", "/api/v1/files")}  # the link's signature is the credential (test below)
ANY_ROLE = {("get", "/api/v1/auth/me"), ("post", "/api/v1/auth/change-password")}


@pytest.fixture
async def gateway(database_url, tmp_path):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    app = build_app(definition, PlatformSettings(database_url=database_url, storage_root=tmp_path, jwt_secret=SECRET))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw",
                                 event_hooks=example_checks(app.openapi())) as client:
        owner = {"Authorization": f"Bearer {mint_token(user_id='u', merchant_id='merchant-a', secret=SECRET)}"}
        created = await client.post("/api/v1/jobs", files={"file": ("c.pdf", PDF, "application/pdf")}, headers=owner)
        assert created.status_code == 201
        admin = mint_token(user_id="a", merchant_id="merchant-a", secret=SECRET, roles=("admin",))
        profile = await client.post("/api/v1/config/profiles", json={"profile_id": PROFILE},
                                    headers={"Authorization": f"Bearer {admin}"})
        assert profile.status_code in (201, 409)  # 409: made by an earlier run on this database
        async with app.state.ctx.db.transaction() as conn:
            await conn.execute(pg_insert(users).values(user_id=USER, merchant_id="merchant-a", username=USER,
                                                       password_hash="!", roles=["annotator"]).on_conflict_do_nothing())
        yield client, created.json()["job_id"], app.openapi()["paths"], app.state.ctx.storage
    await app.state.ctx.db.close()


def endpoints(paths: dict, job_id: str) -> list[tuple[str, str, str]]:
    return [(method, template, template.replace("{job_id}", job_id).replace("{page}", "1")
             .replace("{profile_id}", PROFILE).replace("{user_id}", USER))
            for template, operations in paths.items() for method in operations
            if (method, template) not in PUBLIC | SIGNED]


async def call(client, method: str, url: str, token: str | None, body: dict | None = None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return await client.request(method.upper(), url, headers=headers, json=body)


async def test_every_endpoint_refuses_every_wrong_caller(gateway, wrong_tokens):
    client, job_id, paths, _ = gateway
    bad = wrong_tokens(SECRET, "merchant-a")
    found = endpoints(paths, job_id)
    assert len(found) >= 15  # the table covers what the app serves
    annotator = mint_token(user_id="a", merchant_id="merchant-a", secret=SECRET, roles=("annotator",))
    # every role, so that only the merchant is wrong
    stranger = mint_token(user_id="s", merchant_id="merchant-b", secret=SECRET, roles=("uploader", "admin"))
    wrong = []
    for method, template, url in found:
        expected = {name: 401 for name in bad}
        if (method, template) not in ANY_ROLE:
            expected["wrong role"] = 403
        if any(name in template for name in ("{job_id}", "{profile_id}", "{user_id}")):
            expected["another merchant"] = 404
        tokens = {**bad, "wrong role": annotator, "another merchant": stranger}
        for case, status in expected.items():
            response = await call(client, method, url, tokens[case], BODIES.get((method, template)))
            if response.status_code != status:
                wrong.append((method.upper(), template, case, response.status_code, status))
    assert wrong == []


async def test_another_merchant_does_not_see_the_job_in_its_list(gateway):
    client, job_id, _, _ = gateway
    stranger = mint_token(user_id="s", merchant_id="merchant-b", secret=SECRET, roles=("uploader",))
    listed = await call(client, "get", "/api/v1/jobs", stranger)
    assert listed.status_code == 200 and job_id not in {job["job_id"] for job in listed.json()}


async def test_a_file_link_works_only_as_signed_and_until_it_expires(gateway):
    client, _, _, storage = gateway
    uri = storage.put("jobs/j1/images/p1_0.png", b"\x89PNG image")
    valid = signed_url("http://gw", uri, SECRET, ttl_seconds=60)
    fetched = await client.get(valid)
    assert (fetched.status_code, fetched.content, fetched.headers["content-type"]) == (200, b"\x89PNG image",
                                                                                       "image/png")
    expected = {
        valid.replace("p1_0.png", "p1_1.png"): 403,  # another file under the same signature
        signed_url("http://gw", uri, SECRET, ttl_seconds=-1): 403,  # expired
        signed_url("http://gw", uri, SECRET + "x", ttl_seconds=60): 403,  # not our signature
        signed_url("http://gw", "local://jobs/j1/gone.png", SECRET, ttl_seconds=60): 404,
        signed_url("http://gw", "local://../../etc/passwd", SECRET, ttl_seconds=60): 404,  # outside storage
        "http://gw/api/v1/files?uri=" + uri: 422,  # no signature at all
    }
    assert {url: (await client.get(url)).status_code for url in expected} == expected
