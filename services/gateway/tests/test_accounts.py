"""Accounts on the real Postgres: an invitation accepted once, refresh tokens rotated and a replayed
one ending its login, logout, disabling, role changes taking effect at refresh, password changes
ending other logins, and an admin confined to their own merchant's users."""

import asyncio
import uuid

import httpx
import pytest
import sqlalchemy as sa

from skuflow_gateway.service import definition
from skuflow_gateway.tables import users
from skuflow_platform.auth import mint_token, verify_token
from skuflow_platform.db import migrate
from skuflow_platform.runtime import build_app
from skuflow_platform.settings import PlatformSettings
from tests.api_examples import example_checks

SECRET = "gateway-accounts-test-secret-long-enough-for-hs256"
PASSWORD = "a long enough pass 1"


@pytest.fixture
async def gateway(database_url, tmp_path):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    app = build_app(definition, PlatformSettings(database_url=database_url, storage_root=tmp_path, jwt_secret=SECRET))
    merchant = f"m-{uuid.uuid4().hex[:8]}"
    admin = {"Authorization": "Bearer " + mint_token(user_id=f"admin-{merchant}", merchant_id=merchant,
                                                     secret=SECRET, roles=("admin",))}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw",
                                 event_hooks=example_checks(app.openapi())) as client:
        yield client, merchant, admin, app.state.ctx
    await app.state.ctx.db.close()


async def invited(client, admin: dict, roles=("annotator",)) -> tuple[str, dict]:
    """A user invited and logged in through the invitation: (username, its session)."""
    name = f"user-{uuid.uuid4().hex[:8]}"
    invite = await client.post("/api/v1/auth/users", headers=admin, json={"username": name, "roles": list(roles)})
    assert invite.status_code == 201 and invite.json()["invitation_pending"]
    accepted = await client.post("/api/v1/auth/accept-invite", json={"invite_token": invite.json()["invite_token"],
                                                                      "password": PASSWORD})
    assert accepted.status_code == 200
    return name, accepted.json()


async def refresh(client, token: str) -> httpx.Response:
    return await client.post("/api/v1/auth/refresh", json={"refresh_token": token})


async def test_an_invitation_is_accepted_once_with_a_password_that_follows_the_rules(gateway):
    client, merchant, admin, ctx = gateway
    name = f"user-{uuid.uuid4().hex[:8]}"
    token = (await client.post("/api/v1/auth/users", headers=admin, json={"username": name, "roles": ["uploader"]})
             ).json()["invite_token"]
    assert (await client.post("/api/v1/auth/login", json={"username": name, "password": "!invited"})
            ).status_code == 401  # not usable before it is accepted
    for weak in ("short 1", "onlyletterslong", f"{name}-secret-9"):
        answer = await client.post("/api/v1/auth/accept-invite", json={"invite_token": token, "password": weak})
        assert answer.status_code == 422, weak
    accepted = await client.post("/api/v1/auth/accept-invite", json={"invite_token": token, "password": PASSWORD})
    assert accepted.status_code == 200 and verify_token(accepted.json()["access_token"], SECRET).merchant_id == merchant
    again = await client.post("/api/v1/auth/accept-invite", json={"invite_token": token, "password": PASSWORD})
    assert again.status_code == 401
    assert (await client.post("/api/v1/auth/login", json={"username": name, "password": PASSWORD})).status_code == 200

    late = (await client.post("/api/v1/auth/users", headers=admin, json={"username": name + "x", "roles": ["uploader"]})
            ).json()
    async with ctx.db.transaction() as conn:
        await conn.execute(users.update().where(users.c.user_id == late["user_id"]).values(
            invite_expires_at=sa.func.now() - sa.text("interval '1 second'")))
    expired = await client.post("/api/v1/auth/accept-invite", json={"invite_token": late["invite_token"],
                                                                    "password": PASSWORD})
    assert expired.status_code == 401


async def test_a_refresh_token_is_used_once_and_a_replayed_one_ends_its_login(gateway):
    client, _, admin, _ = gateway
    _, first = await invited(client, admin)
    second = await refresh(client, first["refresh_token"])
    assert second.status_code == 200 and second.json()["refresh_token"] != first["refresh_token"]
    assert (await refresh(client, first["refresh_token"])).status_code == 401  # replayed
    assert (await refresh(client, second.json()["refresh_token"])).status_code == 401  # the login is over
    assert (await refresh(client, "never-issued")).status_code == 401


async def test_logout_ends_the_login_and_only_that_one(gateway):
    client, _, admin, _ = gateway
    name, first = await invited(client, admin)
    other = (await client.post("/api/v1/auth/login", json={"username": name, "password": PASSWORD})).json()
    assert (await client.post("/api/v1/auth/logout", json={"refresh_token": first["refresh_token"]})).status_code == 204
    assert (await refresh(client, first["refresh_token"])).status_code == 401
    assert (await refresh(client, other["refresh_token"])).status_code == 200


async def test_disabling_ends_logins_and_new_roles_come_with_the_next_refresh(gateway):
    client, _, admin, _ = gateway
    name, session = await invited(client, admin, roles=("annotator",))
    user_id = session["user_id"]
    changed = await client.patch(f"/api/v1/auth/users/{user_id}", headers=admin, json={"roles": ["team_lead"]})
    assert changed.status_code == 200 and changed.json()["roles"] == ["team_lead"]
    renewed = (await refresh(client, session["refresh_token"])).json()
    assert verify_token(renewed["access_token"], SECRET).roles == ("team_lead",)
    assert (await client.patch(f"/api/v1/auth/users/{user_id}", headers=admin, json={"roles": ["pilot"]})
            ).status_code == 422
    assert (await client.patch(f"/api/v1/auth/users/{user_id}/status", headers=admin, json={"disabled": True})
            ).status_code == 200
    assert (await refresh(client, renewed["refresh_token"])).status_code == 401
    assert (await client.post("/api/v1/auth/login", json={"username": name, "password": PASSWORD})).status_code == 401
    await client.patch(f"/api/v1/auth/users/{user_id}/status", headers=admin, json={"disabled": False})
    assert (await client.post("/api/v1/auth/login", json={"username": name, "password": PASSWORD})).status_code == 200


async def test_changing_the_password_ends_every_login_of_the_user(gateway):
    client, _, admin, _ = gateway
    name, session = await invited(client, admin)
    me = {"Authorization": f"Bearer {session['access_token']}"}
    wrong = await client.post("/api/v1/auth/change-password", headers=me,
                              json={"old_password": "not it at all 1", "new_password": "another good one 2"})
    assert wrong.status_code == 403
    weak = await client.post("/api/v1/auth/change-password", headers=me,
                             json={"old_password": PASSWORD, "new_password": "12345678901"})
    assert weak.status_code == 422
    done = await client.post("/api/v1/auth/change-password", headers=me,
                             json={"old_password": PASSWORD, "new_password": "another good one 2"})
    assert done.status_code == 204
    assert (await refresh(client, session["refresh_token"])).status_code == 401
    login = await client.post("/api/v1/auth/login", json={"username": name, "password": "another good one 2"})
    assert login.status_code == 200


async def test_an_admin_manages_only_their_own_merchants_users_and_not_their_own_admin_role(gateway):
    client, merchant, admin, ctx = gateway
    name, session = await invited(client, admin)
    stranger = {"Authorization": "Bearer " + mint_token(user_id="admin-x", merchant_id="other-merchant",
                                                        secret=SECRET, roles=("admin",))}
    assert (await client.patch(f"/api/v1/auth/users/{session['user_id']}/status", headers=stranger,
                               json={"disabled": True})).status_code == 404
    assert name not in {u["username"] for u in (await client.get("/api/v1/auth/users", headers=stranger)
                                                ).json()["users"]}
    assert name in {u["username"] for u in (await client.get("/api/v1/auth/users", headers=admin)).json()["users"]}
    uploader = {"Authorization": "Bearer " + mint_token(user_id="u", merchant_id=merchant, secret=SECRET,
                                                        roles=("uploader",))}
    assert (await client.get("/api/v1/auth/users", headers=uploader)).status_code == 403
    taken = await client.post("/api/v1/auth/users", headers=admin, json={"username": name, "roles": ["uploader"]})
    assert taken.status_code == 409
    admin_id = f"admin-{merchant}"
    async with ctx.db.transaction() as conn:
        await conn.execute(users.insert().values(user_id=admin_id, merchant_id=merchant, username=admin_id,
                                                 password_hash="!", roles=["admin"]))
    assert (await client.patch(f"/api/v1/auth/users/{admin_id}/status", headers=admin, json={"disabled": True})
            ).status_code == 409
    assert (await client.patch(f"/api/v1/auth/users/{admin_id}", headers=admin, json={"roles": ["uploader"]})
            ).status_code == 409
