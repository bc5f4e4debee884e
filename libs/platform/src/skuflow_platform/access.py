"""Who may call an endpoint: one FastAPI dependency for every service (401 without a valid token,
403 without one of the roles the endpoint names)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, HTTPException

from skuflow_platform.auth import AuthError, Principal, bearer_principal

ROLES = ("uploader", "annotator", "team_lead", "ops", "admin")
UPLOADERS = ("uploader", "merchant", "ops", "admin")  # 'merchant': tokens minted by the development CLI
ANNOTATORS = ("annotator", "team_lead", "admin")
OPERATORS = ("ops", "admin")  # profiles, dead letters, the ops back office
SUPERVISORS = ("ops", "team_lead", "admin")  # who reads the ops page: jobs in flight, the backlog, the team


def caller(secret: str, *roles: str):
    """A dependency giving the calling ``Principal``; with ``roles``, the caller must hold one of them."""

    def principal(authorization: Annotated[str | None, Header()] = None) -> Principal:
        try:
            found = bearer_principal(authorization, secret)
        except AuthError as exc:
            raise HTTPException(401, str(exc), headers={"WWW-Authenticate": "Bearer"}) from exc
        if roles and not set(found.roles) & set(roles):
            raise HTTPException(403, f"this needs one of the roles: {', '.join(roles)}")
        return found

    return Annotated[Principal, Depends(principal)]
