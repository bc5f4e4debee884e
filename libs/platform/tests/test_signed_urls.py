"""Signed file links: valid until they expire, for the one file they name, unforgeable."""

from urllib.parse import parse_qs, urlsplit

import pytest

from skuflow_platform.auth import AuthError
from skuflow_platform.signed_urls import FILES_PATH, check_signature, signed_url

SECRET = "a-secret-long-enough-for-hmac-sha256-signing"
URI = "local://jobs/j1/images/p1_0.png"


def parts(url: str) -> dict:
    query = parse_qs(urlsplit(url).query)
    return {"uri": query["uri"][0], "expires": int(query["expires"][0]), "given": query["signature"][0]}


def test_a_link_is_valid_until_it_expires():
    url = signed_url("http://gw:8000/", URI, SECRET, ttl_seconds=60, now=1000)
    assert url.startswith(f"http://gw:8000{FILES_PATH}?")
    link = parts(url)
    assert link["uri"] == URI and link["expires"] == 1060
    check_signature(**link, secret=SECRET, now=1059)
    with pytest.raises(AuthError, match="expired"):
        check_signature(**link, secret=SECRET, now=1061)


@pytest.mark.parametrize("change", [
    {"uri": "local://jobs/j2/images/p1_0.png"},  # pointed at another file
    {"expires": 999_999},  # kept alive longer
    {"given": "0" * 64},
    {"given": "\u0080"},  # not even hex (found by the OpenAPI fuzzer)
])
def test_a_changed_link_is_refused(change):
    link = {**parts(signed_url("http://gw", URI, SECRET, ttl_seconds=60, now=1000)), **change}
    with pytest.raises(AuthError, match="signature"):
        check_signature(**link, secret=SECRET, now=1000)


def test_another_secret_does_not_verify():
    link = parts(signed_url("http://gw", URI, SECRET, ttl_seconds=60, now=1000))
    with pytest.raises(AuthError):
        check_signature(**link, secret=SECRET + "x", now=1000)
