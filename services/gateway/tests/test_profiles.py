"""Threshold profiles through the gateway API on the real Postgres: create, a stale update refused,
an update that breaks INV-01 refused (and counted), a new version published, rollback restoring the previous
version without deleting any, the audit log, and a job frozen at upload to the version active then."""

import asyncio
import uuid

import httpx
import pytest
import sqlalchemy as sa
from prometheus_client import REGISTRY

from skuflow_contracts.codec import decode
from skuflow_contracts.topics import PROFILE_PUBLISHED
from skuflow_gateway.service import definition
from skuflow_gateway.tables import jobs
from skuflow_platform.auth import mint_token
from skuflow_platform.db import migrate
from skuflow_platform.runtime import build_app
from skuflow_platform.settings import PlatformSettings
from tests.api_examples import example_checks

SECRET = "gateway-profile-test-secret-long-enough-for-hs256"
PDF = b"%PDF-1.7\n" + b"1 0 obj << >> endobj\n" * 50
STRICT = {"extraction": {"sku_min_confidence": 0.99}}


def bearer(merchant: str, *roles: str) -> dict:
    token = mint_token(user_id=f"u-{merchant}", merchant_id=merchant, secret=SECRET, roles=roles or ("uploader",))
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
async def gateway(database_url, tmp_path):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    app = build_app(definition, PlatformSettings(database_url=database_url, storage_root=tmp_path, jwt_secret=SECRET))
    merchant = f"m-{uuid.uuid4().hex[:8]}"  # a merchant of its own: profiles are per merchant
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw",
                                 event_hooks=example_checks(app.openapi())) as client:
        yield client, merchant, app.state.ctx
    await app.state.ctx.db.close()


async def upload(client, merchant: str, **params) -> httpx.Response:
    return await client.post("/api/v1/jobs", params=params, headers=bearer(merchant),
                             files={"file": ("c.pdf", PDF, "application/pdf")})


async def frozen(ctx, job_id: str) -> str:
    async with ctx.db.transaction() as conn:
        return (await conn.execute(sa.select(jobs.c.config_version).where(jobs.c.job_id == job_id))).scalar_one()


async def test_update_rollback_and_the_version_a_job_is_frozen_to(gateway):
    client, merchant, ctx = gateway
    admin = bearer(merchant, "admin")
    created = await client.post("/api/v1/config/profiles", headers=admin, json={
        "profile_id": "furniture", "category": "furniture", "is_default": True, "settings": {}})
    assert created.status_code == 201 and created.json()["config_version"] == f"{merchant}:furniture:v1"
    assert (await client.post("/api/v1/config/profiles", headers=admin, json={"profile_id": "furniture"})
            ).status_code == 409

    read = (await client.get("/api/v1/config/profiles/furniture", headers=bearer(merchant))).json()
    assert read["expected_version"] == "v1"
    updated = await client.put("/api/v1/config/profiles/furniture", headers=admin, json={
        "expected_version": "v1", "settings": STRICT, "change_reason": "stricter SKUs"})
    assert updated.status_code == 200 and updated.json()["version"] == "v2"
    stale = await client.put("/api/v1/config/profiles/furniture", headers=admin, json={
        "expected_version": "v1", "settings": {}})
    assert stale.status_code == 409 and stale.json()["detail"]["code"] == "CONFIG_CONFLICT"
    refused = REGISTRY.get_sample_value("invariant_violation_total", {"invariant_id": "INV-01"}) or 0.0
    broken = await client.put("/api/v1/config/profiles/furniture", headers=admin, json={
        "expected_version": "v2", "settings": {"classification": {"b_threshold": 0.9}}})
    assert broken.status_code == 422 and "INV-01" in broken.json()["detail"]
    assert REGISTRY.get_sample_value("invariant_violation_total", {"invariant_id": "INV-01"}) == refused + 1

    running = (await upload(client, merchant)).json()["job_id"]  # the default profile, at v2
    assert await frozen(ctx, running) == f"{merchant}:furniture:v2"
    rolled = await client.post("/api/v1/config/profiles/furniture/rollback", headers=admin)
    assert rolled.status_code == 200 and rolled.json()["active_version"] == "v1"
    assert await frozen(ctx, running) == f"{merchant}:furniture:v2"  # the running job keeps its version
    after = (await upload(client, merchant, category="furniture")).json()["job_id"]
    assert (await upload(client, merchant, category="furni\x00ture")).status_code == 422  # Postgres refuses NUL
    assert await frozen(ctx, after) == f"{merchant}:furniture:v1"
    again = await client.post("/api/v1/config/profiles/furniture/rollback", headers=admin)
    assert again.status_code == 409 and again.json()["detail"]["code"] == "NO_ROLLBACK_TARGET"

    read = (await client.get("/api/v1/config/profiles/furniture", headers=bearer(merchant))).json()
    assert read["active_version"] == "v1" and [v["version"] for v in read["versions"]] == ["v1", "v2"]
    changes = (await client.get("/api/v1/config/profiles/furniture/audit", headers=admin)).json()["changes"]
    assert [(c["action"], c["from_version"], c["to_version"]) for c in changes] == [
        ("create", None, "v1"), ("update", "v1", "v2"), ("rollback", "v2", "v1")]
    assert changes[1]["reason"] == "stricter SKUs" and changes[1]["by"] == f"u-{merchant}"

    async with ctx.db.transaction() as conn:
        bodies = (await conn.execute(sa.select(ctx.tables.outbox.c.body).where(
            ctx.tables.outbox.c.topic == PROFILE_PUBLISHED.name,
            ctx.tables.outbox.c.message_key.like(f"{merchant}:%")))).scalars()
        published = [decode(PROFILE_PUBLISHED.name, body).payload for body in bodies]
    assert [p.config_version for p in published] == [f"{merchant}:furniture:v1", f"{merchant}:furniture:v2"]
    assert published[1].profile.extraction.sku_min_confidence == 0.99


async def test_who_may_do_what_with_profiles(gateway):
    client, merchant, _ = gateway
    body = {"profile_id": "shoes", "settings": {}}
    assert (await client.post("/api/v1/config/profiles", headers=bearer(merchant), json=body)).status_code == 403
    assert (await client.post("/api/v1/config/profiles", headers=bearer(merchant, "ops"), json=body)
            ).status_code == 201
    stranger = bearer(f"{merchant}-other", "admin")
    assert (await client.get("/api/v1/config/profiles/shoes", headers=stranger)).status_code == 404
    assert (await client.put("/api/v1/config/profiles/shoes", headers=stranger,
                             json={"expected_version": "v1", "settings": {}})).status_code == 404
    assert (await client.get("/api/v1/config/profiles", headers=stranger)).json()["profiles"] == []
    assert (await upload(client, merchant, profile="nope")).status_code == 422
    assert (await upload(client, f"{merchant}-other", profile="shoes")).status_code == 422  # not theirs


async def test_a_category_schema_is_edited_as_a_new_version_of_its_profile(gateway):
    client, merchant, _ = gateway
    ops = bearer(merchant, "ops")
    assert (await client.post("/api/v1/config/profiles", headers=ops, json={
        "profile_id": "sofas", "category": "furniture", "settings": STRICT})).status_code == 201
    schema = {"expected_version": "v1", "required_fields": ["model", "price"], "optional_fields": ["material"],
              "validation_rules": [{"name": "price_range", "rule_type": "range_check",
                                    "params": {"field": "price", "min": 1, "max": 100000}}]}
    put = await client.put("/api/v1/config/profiles/sofas/categories/furniture", headers=ops, json=schema)
    assert put.status_code == 200 and put.json()["version"] == "v2"
    stale = await client.put("/api/v1/config/profiles/sofas/categories/furniture", headers=ops, json=schema)
    assert stale.status_code == 409 and stale.json()["detail"]["code"] == "CONFIG_CONFLICT"
    bad = {**schema, "expected_version": "v2", "validation_rules": [{"name": "x", "rule_type": "eval"}]}
    assert (await client.put("/api/v1/config/profiles/sofas/categories/furniture", headers=ops,
                             json=bad)).status_code == 422  # only the declared rule types
    listed = (await client.get("/api/v1/config/profiles/sofas/categories", headers=bearer(merchant))).json()
    assert listed["expected_version"] == "v2"
    [furniture] = listed["categories"]
    assert (furniture["category"], furniture["required_fields"]) == ("furniture", ["model", "price"])
    settings = (await client.get("/api/v1/config/profiles/sofas", headers=ops)).json()["settings"]
    assert settings["extraction"]["sku_min_confidence"] == 0.99  # the rest of the profile is kept
    assert (await client.put("/api/v1/config/profiles/sofas/categories/furniture", headers=bearer(merchant),
                             json={**schema, "expected_version": "v2"})).status_code == 403


async def versions_and_changes(client, merchant: str, profile_id: str) -> tuple[list[str], list[str]]:
    admin = bearer(merchant, "admin")
    read = (await client.get(f"/api/v1/config/profiles/{profile_id}", headers=admin)).json()
    changes = (await client.get(f"/api/v1/config/profiles/{profile_id}/audit", headers=admin)).json()["changes"]
    return [v["version"] for v in read["versions"]], [c["action"] for c in changes]


async def test_a_misspelled_setting_is_refused_naming_it_and_the_key_meant(gateway):
    client, merchant, _ = gateway
    admin = bearer(merchant, "admin")
    assert (await client.post("/api/v1/config/profiles", headers=admin, json={
        "profile_id": "lamps", "settings": STRICT})).status_code == 201
    for settings, named, meant in (
            ({"bindingz": {"ambiguity_gap": 0.3}}, "'bindingz'", "'binding'"),
            ({"binding": {"ambiguity_gapp": 0.3}}, "'binding.ambiguity_gapp'", "'binding.ambiguity_gap'"),
            ({"category_schemas": [{"category": "lamps", "required_feilds": ["model"]}]},
             "'category_schemas[0].required_feilds'", "'category_schemas[0].required_fields'")):
        refused = await client.put("/api/v1/config/profiles/lamps", headers=admin,
                                   json={"expected_version": "v1", "settings": settings})
        assert refused.status_code == 422, settings
        assert named in refused.json()["detail"] and f"did you mean {meant}" in refused.json()["detail"]
    created = await client.post("/api/v1/config/profiles", headers=admin, json={
        "profile_id": "chairs", "settings": {"extractoin": {}}})
    assert created.status_code == 422 and "'extractoin'" in created.json()["detail"]
    assert await versions_and_changes(client, merchant, "lamps") == (["v1"], ["create"])  # no version was made


async def test_an_update_that_changes_nothing_makes_no_version(gateway):
    client, merchant, ctx = gateway
    admin = bearer(merchant, "admin")
    assert (await client.post("/api/v1/config/profiles", headers=admin, json={
        "profile_id": "rugs", "settings": STRICT})).status_code == 201
    read = (await client.get("/api/v1/config/profiles/rugs", headers=admin)).json()
    for settings in (STRICT, read["settings"]):  # as first sent, and as read back (defaults spelled out)
        same = await client.put("/api/v1/config/profiles/rugs", headers=admin,
                                json={"expected_version": "v1", "settings": settings})
        assert same.status_code == 200
        assert (same.json()["version"], same.json().get("changed")) == ("v1", False)
    assert await versions_and_changes(client, merchant, "rugs") == (["v1"], ["create"])
    changed = await client.put("/api/v1/config/profiles/rugs", headers=admin,
                               json={"expected_version": "v1", "settings": {}})
    assert (changed.json()["version"], changed.json()["changed"]) == ("v2", True)
    async with ctx.db.transaction() as conn:
        published = (await conn.execute(sa.select(ctx.tables.outbox.c.message_key).where(
            ctx.tables.outbox.c.topic == PROFILE_PUBLISHED.name,
            ctx.tables.outbox.c.message_key.like(f"{merchant}:rugs:%")))).scalars().all()
    assert sorted(published) == [f"{merchant}:rugs:v1", f"{merchant}:rugs:v2"]
