"""Expiring, signed links to stored files, so a downstream system can fetch a product image without
an account and without learning our internal ``local://`` URIs' meaning beyond one file.

The signature (HMAC-SHA256 with a key derived from the service secret) covers the file's URI and
the expiry, so a link cannot be pointed at another file or kept alive longer.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlencode

from pydantic_settings import BaseSettings, SettingsConfigDict

from skuflow_contracts.results import ImageLink
from skuflow_platform.auth import AuthError

FILES_PATH = "/api/v1/files"
_PURPOSE = b"skuflow signed file url\x00"


def signature(uri: str, expires: int, secret: str) -> str:
    key = hashlib.sha256(_PURPOSE + secret.encode()).digest()
    return hmac.new(key, f"{uri}\n{expires}".encode(), hashlib.sha256).hexdigest()


def signed_url(base_url: str, uri: str, secret: str, ttl_seconds: int, now: float | None = None) -> str:
    return FileLinks(base_url, secret, _expiry(ttl_seconds, now)).url(uri)


def _expiry(ttl_seconds: int, now: float | None) -> int:
    return int((time.time() if now is None else now) + ttl_seconds)


@dataclass(frozen=True)
class FileLinks:
    """Links made at one moment (one event's, one answer's): they all expire together."""

    base_url: str
    secret: str
    expires: int

    def url(self, uri: str) -> str:
        query = urlencode({"uri": uri, "expires": self.expires, "signature": signature(uri, self.expires, self.secret)})
        return f"{self.base_url.rstrip('/')}{FILES_PATH}?{query}"

    def image(self, image_id: str, uri: str) -> ImageLink:
        return ImageLink(image_id=image_id, url=self.url(uri), expires_at=datetime.fromtimestamp(self.expires, UTC))


class FileLinkSettings(BaseSettings):
    """``SKUFLOW_FILE_LINKS_*``: the gateway as downstream systems reach it, and how long a link lives."""

    model_config = SettingsConfigDict(env_prefix="SKUFLOW_FILE_LINKS_", extra="ignore")

    base_url: str = "http://127.0.0.1:8000"
    ttl_seconds: int = 7 * 86400

    def links(self, secret: str, now: float | None = None) -> FileLinks:
        return FileLinks(self.base_url, secret, _expiry(self.ttl_seconds, now))


def check_signature(uri: str, expires: int, given: str, secret: str, now: float | None = None) -> None:
    """AuthError when the link was not signed by us for this file and expiry, or has expired."""
    if not hmac.compare_digest(signature(uri, expires, secret).encode(), given.encode()):
        raise AuthError("the link's signature does not match")
    if expires < (time.time() if now is None else now):
        raise AuthError("the link has expired")
