"""Examples of what the services' APIs answer, in their OpenAPI documents.

``answer`` documents a route's success answer by an example of its body (the gateway and collab
keep theirs as data in ``api/examples.py``); ``restore_examples`` keeps their nulls, which FastAPI
would drop. The API tests compare real answers with these examples (``tests/api_examples.py``).
"""

from __future__ import annotations

import json

from fastapi import FastAPI

JSON = "application/json"
WRITTEN = "x-as-written"  # the examples of a media type as JSON text, which FastAPI leaves whole


def shown(example: object = None, several: dict[str, object] | None = None) -> dict:
    """A media type's example: one body, or ``several`` named ones for an answer of more than one shape."""
    written = {"examples": {name: {"value": value} for name, value in several.items()}} if several \
        else {"example": example}
    return {**written, WRITTEN: json.dumps(written)}


def answer(example: object = None, *, several: dict[str, object] | None = None, status: int = 200,
           media: str = JSON, **response: object) -> dict[int, dict]:
    """A route's ``responses=`` entry for its ``status`` answer, with an example of the body (``response``:
    e.g. its description). FastAPI merges it with what it derives itself (the schema, the default description)."""
    return {status: {"content": {media: shown(example, several)}, **response}}


def restore_examples(app: FastAPI) -> None:
    """FastAPI drops every null from the document it generates, those of examples too (``"color": null``);
    put the examples of the answers back as written."""
    generate = app.openapi

    def openapi() -> dict:
        spec = generate()
        for operations in spec["paths"].values():
            for operation in operations.values():
                for response in operation["responses"].values():
                    for media in response.get("content", {}).values():
                        if WRITTEN in media:
                            media.update(json.loads(media.pop(WRITTEN)))
        return spec

    app.openapi = openapi
