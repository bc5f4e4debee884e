"""The caller of a request, from its bearer token: checked before anything else is read."""

from typing import Annotated

from fastapi import Depends, Header, HTTPException

from skuflow_platform.auth import AuthError, Principal, bearer_principal
from skuflow_platform.runtime import ServiceContext


def caller_dependency(ctx: ServiceContext):
    def principal(authorization: Annotated[str | None, Header()] = None) -> Principal:
        try:
            return bearer_principal(authorization, ctx.settings.jwt_secret)
        except AuthError as exc:
            raise HTTPException(401, str(exc), headers={"WWW-Authenticate": "Bearer"}) from exc

    return Annotated[Principal, Depends(principal)]
