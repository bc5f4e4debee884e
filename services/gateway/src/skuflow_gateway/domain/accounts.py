"""Accounts: password rules and hashing (Argon2id), the roles a user may hold (seed-001a §11), and
the opaque one-time secrets behind refresh tokens and invitations (only their hashes are stored)."""

from __future__ import annotations

import hashlib
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from skuflow_platform.access import ROLES

MIN_PASSWORD = 10
_hasher = PasswordHasher()
# A hash to verify against when the user does not exist, so a wrong name costs as long as a wrong password.
_DECOY = _hasher.hash("decoy-password-never-matches")


class AccountError(ValueError):
    """A username, password or role that cannot be accepted."""


INVITED = "!invited"  # the password of a user who has not accepted the invitation: matches nothing


def check_new_account(username: str, password: str | None, roles: list[str]) -> None:
    """``password`` None: an invited user, who chooses one when accepting."""
    if not 3 <= len(username) <= 64 or not username.replace("_", "").replace("-", "").replace(".", "").isalnum():
        raise AccountError("a username is 3-64 letters, digits, '.', '-' or '_'")
    if password is not None:
        check_password(password, username)
    check_roles(roles)


def check_password(password: str, username: str = "") -> None:
    if len(password) < MIN_PASSWORD or password.isdigit() or password.isalpha():
        raise AccountError(f"a password has at least {MIN_PASSWORD} characters, not only letters or only digits")
    if username and username.lower() in password.lower():
        raise AccountError("a password may not contain the username")


def check_roles(roles: list[str]) -> None:
    unknown = set(roles) - set(ROLES)
    if not roles or unknown:
        raise AccountError(f"roles must be some of {', '.join(ROLES)}")


def new_secret() -> tuple[str, str]:
    """A one-time secret to hand out, and the hash to store (a leaked table hands out nothing)."""
    token = secrets.token_urlsafe(32)
    return token, secret_hash(token)


def secret_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def password_matches(stored_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(stored_hash or _DECOY, password) and stored_hash is not None
    except (VerificationError, InvalidHashError):
        return False
