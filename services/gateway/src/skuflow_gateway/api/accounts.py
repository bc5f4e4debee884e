"""Login and the caller's own account (seed-001a §11): short-lived tokens that carry the user's
merchant and roles. A wrong username and a wrong password get the same answer, after the same work."""

import asyncio
from typing import Annotated

import sqlalchemy as sa
from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from skuflow_gateway.domain.accounts import password_matches
from skuflow_gateway.tables import users
from skuflow_platform.access import ROLES, caller
from skuflow_platform.auth import mint_token
from skuflow_platform.runtime import ServiceContext
from skuflow_platform.settings import PlatformSettings


class AccountSettings(PlatformSettings):
    token_minutes: int = 60


class Login(BaseModel):
    username: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[\w.-]+$")]
    password: Annotated[str, Field(min_length=1, max_length=256)]


def routes(ctx: ServiceContext) -> APIRouter:
    router = APIRouter(prefix="/auth", tags=["auth"])
    minutes = AccountSettings().token_minutes
    Anyone = caller(ctx.settings.jwt_secret, *ROLES, "merchant")

    @router.post("/login")
    async def login(body: Login) -> dict:
        async with ctx.db.transaction() as conn:
            user = (await conn.execute(sa.select(users).where(users.c.username == body.username))).first()
        matches = await asyncio.to_thread(password_matches, user.password_hash if user else None, body.password)
        if user is None or not matches or user.disabled:
            raise HTTPException(401, "invalid username or password", headers={"WWW-Authenticate": "Bearer"})
        token = mint_token(user_id=user.user_id, merchant_id=user.merchant_id, secret=ctx.settings.jwt_secret,
                           roles=tuple(user.roles), ttl_seconds=minutes * 60)
        return {"access_token": token, "token_type": "bearer", "expires_in": minutes * 60,
                "user_id": user.user_id, "username": user.username, "merchant_id": user.merchant_id,
                "roles": user.roles}

    @router.get("/me")
    async def me(who: Anyone) -> dict:
        async with ctx.db.transaction() as conn:
            user = (await conn.execute(sa.select(users.c.username).where(users.c.user_id == who.user_id))).first()
        return {"user_id": who.user_id, "username": user.username if user else None,
                "merchant_id": who.merchant_id, "roles": list(who.roles)}

    return router
