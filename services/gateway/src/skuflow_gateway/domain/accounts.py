"""Accounts: password rules and hashing (Argon2id), and the roles a user may hold (seed-001a §11)."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from skuflow_platform.access import ROLES

MIN_PASSWORD = 10
_hasher = PasswordHasher()
# A hash to verify against when the user does not exist, so a wrong name costs as long as a wrong password.
_DECOY = _hasher.hash("decoy-password-never-matches")


class AccountError(ValueError):
    """A username, password or role that cannot be accepted."""


def check_new_account(username: str, password: str, roles: list[str]) -> None:
    if not 3 <= len(username) <= 64 or not username.replace("_", "").replace("-", "").replace(".", "").isalnum():
        raise AccountError("a username is 3-64 letters, digits, '.', '-' or '_'")
    if len(password) < MIN_PASSWORD or password.isdigit() or password.isalpha():
        raise AccountError(f"a password has at least {MIN_PASSWORD} characters, not only letters or only digits")
    unknown = set(roles) - set(ROLES)
    if not roles or unknown:
        raise AccountError(f"roles must be some of {', '.join(ROLES)}")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def password_matches(stored_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(stored_hash or _DECOY, password) and stored_hash is not None
    except (VerificationError, InvalidHashError):
        return False
