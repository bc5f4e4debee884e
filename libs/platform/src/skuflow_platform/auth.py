"""JWT bearer tokens: who is calling and which merchant's data they may see."""

from __future__ import annotations

import time
from dataclasses import dataclass

import jwt

ALGORITHM = "HS256"


class AuthError(Exception):
    """Missing, malformed, expired or forged credentials."""


@dataclass(frozen=True)
class Principal:
    user_id: str
    merchant_id: str
    roles: tuple[str, ...]


def mint_token(*, user_id: str, merchant_id: str, secret: str, roles: tuple[str, ...] = ("merchant",),
               ttl_seconds: int = 3600) -> str:
    now = int(time.time())
    claims = {"sub": user_id, "merchant_id": merchant_id, "roles": list(roles), "iat": now,
              "exp": now + ttl_seconds}
    return jwt.encode(claims, secret, algorithm=ALGORITHM)


def verify_token(token: str, secret: str) -> Principal:
    try:
        claims = jwt.decode(token, secret, algorithms=[ALGORITHM], options={"require": ["sub", "exp"]})
    except jwt.ExpiredSignatureError as exc:
        raise AuthError("token expired") from exc
    except jwt.InvalidTokenError as exc:
        raise AuthError(f"invalid token: {exc}") from exc
    merchant = claims.get("merchant_id")
    if not isinstance(merchant, str) or not merchant:
        raise AuthError("token carries no merchant_id")
    return Principal(user_id=str(claims["sub"]), merchant_id=merchant, roles=tuple(claims.get("roles", ())))


def bearer_principal(authorization: str | None, secret: str) -> Principal:
    if not authorization:
        raise AuthError("missing Authorization header")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise AuthError("Authorization must be 'Bearer <token>'")
    return verify_token(token.strip(), secret)
