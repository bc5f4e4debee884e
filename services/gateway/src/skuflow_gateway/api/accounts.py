"""Login and sessions (seed-001a §11, seed-001b §2.1 "Auth and users"): short-lived access tokens that
carry the user's merchant and roles, refresh tokens to renew them, logout, accepting an invitation
and changing one's password. A wrong username and a wrong password get the same answer, after the
same work.

A refresh token is used once: refreshing rotates it within its login's family, and a rotated token
presented again (stolen and replayed, or a client bug) ends the whole family. Roles and a disabled
account take effect at the next refresh; access tokens live ``SKUFLOW_TOKEN_MINUTES``.
"""

import asyncio
import uuid
from typing import Annotated

import sqlalchemy as sa
from fastapi import APIRouter, HTTPException, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_gateway.api import examples
from skuflow_gateway.domain.accounts import (
    AccountError,
    check_password,
    hash_password,
    new_secret,
    password_matches,
    secret_hash,
)
from skuflow_gateway.tables import refresh_tokens, users
from skuflow_platform.access import ROLES, caller
from skuflow_platform.auth import mint_token
from skuflow_platform.db import from_now
from skuflow_platform.openapi import answer
from skuflow_platform.runtime import ServiceContext
from skuflow_platform.settings import PlatformSettings

Username = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[\w.-]+$")]
Password = Annotated[str, Field(min_length=1, max_length=256)]
Secret = Annotated[str, Field(min_length=1, max_length=200)]
REFUSED = {"WWW-Authenticate": "Bearer"}


class AccountSettings(PlatformSettings):
    token_minutes: int = 60
    refresh_days: int = 14


class Login(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"username": "ann", "password": "correct horse 42"}]})

    username: Username
    password: Password


class Refresh(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"refresh_token": "kq8T2xw…the token login gave"}]})

    refresh_token: Secret


class AcceptInvite(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"invite_token": "Zx81…the token from the invitation", "password": "correct horse 42"}
    ]})

    invite_token: Secret
    password: Password


class ChangePassword(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"old_password": "correct horse 42", "new_password": "battery staple 7"}
    ]})

    old_password: Password
    new_password: Password


async def end_sessions(conn: AsyncConnection, *, user_id: str | None = None, family_id: str | None = None) -> None:
    """Revoke every live refresh token of a user, or of one login's family."""
    column, value = (refresh_tokens.c.user_id, user_id) if user_id else (refresh_tokens.c.family_id, family_id)
    await conn.execute(refresh_tokens.update().where(column == value, refresh_tokens.c.revoked_at.is_(None))
                       .values(revoked_at=sa.func.now()))


def routes(ctx: ServiceContext) -> APIRouter:
    router = APIRouter(prefix="/auth", tags=["auth"])
    settings = AccountSettings()
    Anyone = caller(ctx.settings.jwt_secret, *ROLES, "merchant")

    async def session(conn: AsyncConnection, user: sa.Row, family_id: str | None = None) -> dict:
        """Tokens for ``user``: a new access token and a refresh token in the login's family."""
        refresh, digest = new_secret()
        await conn.execute(refresh_tokens.insert().values(
            token_hash=digest, user_id=user.user_id, family_id=family_id or str(uuid.uuid4()),
            expires_at=from_now(settings.refresh_days * 86400)))
        access = mint_token(user_id=user.user_id, merchant_id=user.merchant_id, secret=ctx.settings.jwt_secret,
                            roles=tuple(user.roles), ttl_seconds=settings.token_minutes * 60, name=user.username)
        return {"access_token": access, "token_type": "bearer", "expires_in": settings.token_minutes * 60,
                "refresh_token": refresh, "refresh_expires_in": settings.refresh_days * 86400,
                "user_id": user.user_id, "username": user.username, "merchant_id": user.merchant_id,
                "roles": user.roles}

    @router.post("/login", responses=answer(examples.SESSION))
    async def login(body: Login) -> dict:
        async with ctx.db.transaction() as conn:
            user = (await conn.execute(sa.select(users).where(users.c.username == body.username))).first()
            matches = await asyncio.to_thread(password_matches, user.password_hash if user else None, body.password)
            if user is None or not matches or user.disabled:
                raise HTTPException(401, "invalid username or password", headers=REFUSED)
            return await session(conn, user)

    @router.post("/refresh", responses={**answer(examples.SESSION),
                                        401: {"description": "unknown, expired, used or revoked"}})
    async def refresh(body: Refresh) -> dict:
        """A new access token and a new refresh token; the one sent is used up."""
        async with ctx.db.transaction() as conn:
            found = (await conn.execute(sa.select(refresh_tokens, sa.func.now().label("now")).where(
                refresh_tokens.c.token_hash == secret_hash(body.refresh_token)).with_for_update())).first()
            if found is not None and found.revoked_at is not None:
                await end_sessions(conn, family_id=found.family_id)  # a used token again: end the login
            user = None if found is None else (await conn.execute(
                sa.select(users).where(users.c.user_id == found.user_id))).first()
            if found is None or found.revoked_at is not None or found.expires_at <= found.now \
                    or user is None or user.disabled:
                refused = True
            else:
                refused = False
                await conn.execute(refresh_tokens.update().where(
                    refresh_tokens.c.token_hash == found.token_hash).values(revoked_at=sa.func.now()))
                answer = await session(conn, user, found.family_id)
        if refused:  # raised after the commit, so that ending a replayed token's family holds
            raise HTTPException(401, "the refresh token is not valid; log in again", headers=REFUSED)
        return answer

    @router.post("/logout", status_code=204, response_class=Response)
    async def logout(body: Refresh) -> Response:
        """End the login the refresh token belongs to (its access tokens run out on their own)."""
        async with ctx.db.transaction() as conn:
            family = (await conn.execute(sa.select(refresh_tokens.c.family_id).where(
                refresh_tokens.c.token_hash == secret_hash(body.refresh_token)))).scalar_one_or_none()
            if family is not None:
                await end_sessions(conn, family_id=family)
        return Response(status_code=204)

    @router.post("/accept-invite", responses={**answer(examples.SESSION),
                                              401: {"description": "unknown or expired invitation"}})
    async def accept_invite(body: AcceptInvite) -> dict:
        """Choose a password for an invited account; answers as a login does."""
        async with ctx.db.transaction() as conn:
            user = (await conn.execute(sa.select(users).where(
                users.c.invite_hash == secret_hash(body.invite_token),
                users.c.invite_expires_at > sa.func.now(), users.c.disabled.is_(False)).with_for_update())).first()
            if user is None:
                raise HTTPException(401, "the invitation is not valid; ask your admin for a new one")
            try:
                check_password(body.password, user.username)
            except AccountError as exc:
                raise HTTPException(422, str(exc)) from exc
            digest = await asyncio.to_thread(hash_password, body.password)
            await conn.execute(users.update().where(users.c.user_id == user.user_id).values(
                password_hash=digest, invite_hash=None, invite_expires_at=None))
            return await session(conn, user)

    @router.get("/me", responses=answer(examples.ME))
    async def me(who: Anyone) -> dict:
        async with ctx.db.transaction() as conn:
            user = (await conn.execute(sa.select(users.c.username).where(users.c.user_id == who.user_id))).first()
        return {"user_id": who.user_id, "username": user.username if user else None,
                "merchant_id": who.merchant_id, "roles": list(who.roles)}

    @router.post("/change-password", status_code=204, response_class=Response)
    async def change_password(body: ChangePassword, who: Anyone) -> Response:
        """Every other login of the user ends (their refresh tokens are revoked)."""
        async with ctx.db.transaction() as conn:
            user = (await conn.execute(sa.select(users).where(users.c.user_id == who.user_id)
                                       .with_for_update())).first()
            if user is None or not await asyncio.to_thread(password_matches, user.password_hash, body.old_password):
                raise HTTPException(403, "the old password is wrong")
            try:
                check_password(body.new_password, user.username)
            except AccountError as exc:
                raise HTTPException(422, str(exc)) from exc
            digest = await asyncio.to_thread(hash_password, body.new_password)
            await conn.execute(users.update().where(users.c.user_id == user.user_id).values(password_hash=digest))
            await end_sessions(conn, user_id=user.user_id)
        return Response(status_code=204)

    return router
