"""Expiring, signed links to stored files, so a downstream system can fetch a product image without
an account and without learning our internal ``local://`` URIs' meaning beyond one file.

The signature (HMAC-SHA256 with a key derived from the service secret) covers the file's URI and
the expiry, so a link cannot be pointed at another file or kept alive longer.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from urllib.parse import urlencode

from skuflow_platform.auth import AuthError

FILES_PATH = "/api/v1/files"
_PURPOSE = b"skuflow signed file url\x00"


def signature(uri: str, expires: int, secret: str) -> str:
    key = hashlib.sha256(_PURPOSE + secret.encode()).digest()
    return hmac.new(key, f"{uri}\n{expires}".encode(), hashlib.sha256).hexdigest()


def signed_url(base_url: str, uri: str, secret: str, ttl_seconds: int, now: float | None = None) -> str:
    expires = int((time.time() if now is None else now) + ttl_seconds)
    query = urlencode({"uri": uri, "expires": expires, "signature": signature(uri, expires, secret)})
    return f"{base_url.rstrip('/')}{FILES_PATH}?{query}"


def check_signature(uri: str, expires: int, given: str, secret: str, now: float | None = None) -> None:
    """AuthError when the link was not signed by us for this file and expiry, or has expired."""
    if not hmac.compare_digest(signature(uri, expires, secret).encode(), given.encode()):
        raise AuthError("the link's signature does not match")
    if expires < (time.time() if now is None else now):
        raise AuthError("the link has expired")
