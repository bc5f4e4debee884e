"""User administration for a merchant's admin (seed-001b §2.1): list, invite, change roles, disable
and enable. An admin sees and changes only their own merchant's users; another merchant's user is
a 404. An invited user chooses a password at ``POST /auth/accept-invite``."""

import uuid
from typing import Annotated

import sqlalchemy as sa
from fastapi import APIRouter, HTTPException, Path
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_gateway.api import examples
from skuflow_gateway.api.accounts import Username, end_sessions
from skuflow_gateway.api.auth import caller_dependency
from skuflow_gateway.domain.accounts import INVITED, AccountError, check_new_account, check_roles, new_secret
from skuflow_gateway.tables import platform, users
from skuflow_platform.auth import Principal
from skuflow_platform.db import from_now
from skuflow_platform.openapi import answer
from skuflow_platform.runtime import ServiceContext
from skuflow_platform.settings import PlatformSettings

UserId = Annotated[str, Path(min_length=1, max_length=100)]
Roles = Annotated[list[str], Field(min_length=1, max_length=5, examples=[["annotator"]])]


class InviteSettings(PlatformSettings):
    invite_hours: int = 72


class Invite(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"username": "lea", "roles": ["team_lead"]}
    ]})

    username: Username
    roles: Roles


class RoleChange(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"roles": ["annotator", "team_lead"]}
    ]})

    roles: Roles


class StatusChange(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"disabled": True}]})

    disabled: bool


def shown(user: sa.Row) -> dict:
    return {"user_id": user.user_id, "username": user.username, "roles": user.roles, "disabled": user.disabled,
            "invitation_pending": user.invite_hash is not None, "created_at": user.created_at.isoformat()}


def routes(ctx: ServiceContext) -> APIRouter:
    router = APIRouter(prefix="/auth/users", tags=["users"])
    Admin = caller_dependency(ctx, "admin")
    hours = InviteSettings().invite_hours

    async def own_user(conn: AsyncConnection, user_id: str, admin: Principal) -> sa.Row:
        row = (await conn.execute(sa.select(users).where(users.c.user_id == user_id,
                                                         users.c.merchant_id == admin.merchant_id)
                                  .with_for_update())).first()
        if row is None:
            raise HTTPException(404, f"user {user_id} not found")
        return row

    async def audit(conn: AsyncConnection, user_id: str, before: str | None, after: str, admin: Principal,
                    **detail: object) -> None:
        await conn.execute(platform.state_transitions.insert().values(
            entity="user", entity_id=user_id, from_status=before, to_status=after,
            detail={"by": admin.user_id, **detail}))

    @router.get("", responses=answer(examples.USERS))
    async def list_users(admin: Admin) -> dict:
        async with ctx.db.transaction() as conn:
            rows = (await conn.execute(sa.select(users).where(users.c.merchant_id == admin.merchant_id)
                                       .order_by(users.c.username))).all()
        return {"users": [shown(row) for row in rows]}

    @router.post("", status_code=201, responses=answer(examples.INVITED, status=201))
    async def invite_user(body: Invite, admin: Admin) -> dict:
        """A new user of the admin's merchant, with an invitation token to hand them (shown once)."""
        try:
            check_new_account(body.username, None, body.roles)
        except AccountError as exc:
            raise HTTPException(422, str(exc)) from exc
        token, digest = new_secret()
        user_id = str(uuid.uuid4())
        async with ctx.db.transaction() as conn:
            taken = await conn.execute(sa.select(users.c.user_id).where(users.c.username == body.username))
            if taken.first() is not None:
                raise HTTPException(409, f"the username {body.username} is taken")
            created = (await conn.execute(users.insert().values(
                user_id=user_id, merchant_id=admin.merchant_id, username=body.username, password_hash=INVITED,
                roles=body.roles, invite_hash=digest, created_by=admin.user_id,
                invite_expires_at=from_now(hours * 3600),
            ).returning(users))).one()
            await audit(conn, user_id, None, "INVITED", admin, roles=body.roles)
        return {**shown(created), "invite_token": token, "invite_expires_in": hours * 3600}

    @router.patch("/{user_id}", responses=answer(examples.USER))
    async def change_roles(user_id: UserId, body: RoleChange, admin: Admin) -> dict:
        """New roles take effect at the user's next login or refresh."""
        try:
            check_roles(body.roles)
        except AccountError as exc:
            raise HTTPException(422, str(exc)) from exc
        async with ctx.db.transaction() as conn:
            user = await own_user(conn, user_id, admin)
            if user_id == admin.user_id and "admin" not in body.roles:
                raise HTTPException(409, "an admin cannot take away their own admin role")
            changed = (await conn.execute(users.update().where(users.c.user_id == user_id)
                                          .values(roles=body.roles).returning(users))).one()
            await audit(conn, user_id, ",".join(user.roles), ",".join(body.roles), admin, change="roles")
        return shown(changed)

    @router.patch("/{user_id}/status", responses=answer(examples.DISABLED_USER))
    async def change_status(user_id: UserId, body: StatusChange, admin: Admin) -> dict:
        """Disabling ends the user's logins at once (refresh tokens revoked) and refuses new ones."""
        async with ctx.db.transaction() as conn:
            user = await own_user(conn, user_id, admin)
            if user_id == admin.user_id and body.disabled:
                raise HTTPException(409, "an admin cannot disable themselves")
            changed = (await conn.execute(users.update().where(users.c.user_id == user_id)
                                          .values(disabled=body.disabled).returning(users))).one()
            if body.disabled:
                await end_sessions(conn, user_id=user_id)
            before, after = ("ENABLED", "DISABLED") if body.disabled else ("DISABLED", "ENABLED")
            if user.disabled != body.disabled:
                await audit(conn, user_id, before, after, admin, change="status")
        return shown(changed)

    return router
