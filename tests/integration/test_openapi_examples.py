"""Every JSON request body the gateway and collab accept is documented with an example in their
OpenAPI documents, and each example is a body the endpoint's model accepts."""

import pytest
from pydantic import BaseModel

from skuflow_collab.service import definition as collab
from skuflow_gateway.service import definition as gateway
from skuflow_platform.runtime import build_app
from skuflow_platform.settings import PlatformSettings


def models() -> dict[str, type[BaseModel]]:
    found, stack = {}, [BaseModel]
    while stack:
        for sub in stack.pop().__subclasses__():
            stack.append(sub)
            if sub.__module__.startswith(("skuflow_gateway", "skuflow_collab")):
                found[sub.__name__] = sub
    return found


def request_bodies(definition) -> list[tuple[str, str | None, dict]]:
    spec = build_app(definition, PlatformSettings()).openapi()
    schemas = spec["components"]["schemas"]
    bodies = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            media = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if media is None:
                continue  # the upload is multipart: a file, described in its own schema
            ref = media["schema"].get("$ref") or next(
                (s["$ref"] for s in media["schema"].get("anyOf", []) if "$ref" in s), None)
            name = ref.rsplit("/", 1)[-1] if ref else None
            bodies.append((f"{method.upper()} {path}", name, schemas[name] if name else media["schema"]))
    return bodies


@pytest.mark.parametrize("definition", [gateway, collab], ids=["gateway", "collab"])
def test_every_json_body_has_an_example_its_model_accepts(definition):
    known = models()
    bodies = request_bodies(definition)
    assert len(bodies) >= 5
    missing = [where for where, _, schema in bodies if not schema.get("examples")]
    assert missing == []
    for _, name, schema in bodies:
        for example in schema["examples"]:
            known[name].model_validate(example)  # raises, naming the field, when the example is wrong
