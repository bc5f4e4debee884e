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
    name: str | None = None  # the login's username, for people to read (user_id is an opaque id)

    @property
    def display_name(self) -> str:
        return self.name or self.user_id


def mint_token(*, user_id: str, merchant_id: str, secret: str, roles: tuple[str, ...] = ("merchant",),
               ttl_seconds: int = 3600, name: str | None = None) -> str:
    now = int(time.time())
    claims = {"sub": user_id, "merchant_id": merchant_id, "roles": list(roles), "iat": now,
              "exp": now + ttl_seconds, **({"name": name} if name else {})}
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
    name = claims.get("name")
    return Principal(user_id=str(claims["sub"]), merchant_id=merchant, roles=tuple(claims.get("roles", ())),
                     name=name if isinstance(name, str) and name else None)


def bearer_principal(authorization: str | None, secret: str) -> Principal:
    if not authorization:
        raise AuthError("missing Authorization header")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise AuthError("Authorization must be 'Bearer <token>'")
    return verify_token(token.strip(), secret)
