"""A real answer of the gateway or collab compared with the example its OpenAPI document shows, so
that an example that no longer matches its endpoint fails the API tests instead of misleading the
document's readers."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from skuflow_platform.openapi import JSON


def examples_in(media: dict) -> list:
    """The example bodies of a media type of the document."""
    return [media["example"]] if "example" in media else [e["value"] for e in media.get("examples", {}).values()]


def _operation(spec: dict, method: str, path: str) -> dict | None:
    """The document's operation serving ``method path``; a literal segment beats a parameter (/tasks/next)."""
    templates = sorted(spec["paths"], key=lambda template: template.count("{"))
    for template in templates:
        if re.fullmatch(re.sub(r"\{[^/]+\}", "[^/]+", template), path):
            found = spec["paths"][template].get(method.lower())
            if found is not None:
                return found
    return None


def _fields(body: object) -> frozenset[str] | None:
    """The top-level fields of a JSON body (of its first item for a list); None when it has none to compare."""
    if isinstance(body, list):
        body = body[0] if body else None
    return frozenset(body) if isinstance(body, dict) else None


def example_drift(spec: dict, method: str, path: str, status: int, body: object) -> str | None:
    """Why the real JSON answer ``body`` does not have the top-level fields of any example documented for
    it, or None when it does (or the path is not one of the document's operations)."""
    operation = _operation(spec, method, path)
    if operation is None:
        return None
    documented = operation["responses"].get(str(status))
    if documented is None:
        return f"{method} {path} answered {status}, which its OpenAPI document does not mention"
    real = _fields(body)
    expected = {_fields(example) for example in examples_in(documented.get("content", {}).get(JSON, {}))}
    if real is None or real in expected or None in expected:
        return None
    return f"{method} {path} {status}: answered with {sorted(real)}, documented {[sorted(e) for e in expected]}"


def example_checks(spec: dict) -> dict[str, list[Callable[..., Awaitable[None]]]]:
    """httpx ``event_hooks`` for a test client of an app with the OpenAPI document ``spec``: every 2xx
    JSON answer must have the top-level fields of its documented example."""
    async def check(response) -> None:
        if not 200 <= response.status_code < 300 or not response.headers.get("content-type", "").startswith(JSON):
            return
        await response.aread()
        if not response.content:
            return
        drift = example_drift(spec, response.request.method, response.request.url.path, response.status_code,
                              response.json())
        if drift is not None:
            raise AssertionError(drift)

    return {"response": [check]}
