"""Every JSON request body the gateway and collab accept is documented with an example in their
OpenAPI documents, and each example is a body the endpoint's model accepts.

Every success answer with a body is documented with an example too (JSON, CSV and the event
stream; pictures are described instead), valid for the answer's schema and, where it carries a
contract (an evaluation, a page's reading, a result, a profile), for the contract's model with
exactly its fields. That real answers have their examples' fields is checked by the API tests,
whose clients run ``tests.api_examples.example_checks`` on every answer.
"""

import json

import jsonschema_rs
import pytest
from pydantic import BaseModel

from skuflow_collab.service import definition as collab
from skuflow_contracts.evaluation import EvaluationReport
from skuflow_contracts.profile import CategorySchema, ThresholdProfile
from skuflow_contracts.results import PageResult, ResultDocument
from skuflow_gateway import timeline
from skuflow_gateway.api.progress import sse_frame
from skuflow_gateway.service import definition as gateway
from skuflow_platform.openapi import JSON
from skuflow_platform.runtime import build_app
from skuflow_platform.settings import PlatformSettings
from tests.api_examples import examples_in

SERVICES = pytest.mark.parametrize("definition", [gateway, collab], ids=["gateway", "collab"])


def models() -> dict[str, type[BaseModel]]:
    found, stack = {}, [BaseModel]
    while stack:
        for sub in stack.pop().__subclasses__():
            stack.append(sub)
            if sub.__module__.startswith(("skuflow_gateway", "skuflow_collab")):
                found[sub.__name__] = sub
    return found


def spec_of(definition) -> dict:
    return build_app(definition, PlatformSettings()).openapi()


def request_bodies(definition) -> list[tuple[str, str | None, dict]]:
    spec = spec_of(definition)
    schemas = spec["components"]["schemas"]
    bodies = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            media = operation.get("requestBody", {}).get("content", {}).get(JSON)
            if media is None:
                continue  # the upload is multipart: a file, described in its own schema
            ref = media["schema"].get("$ref") or next(
                (s["$ref"] for s in media["schema"].get("anyOf", []) if "$ref" in s), None)
            name = ref.rsplit("/", 1)[-1] if ref else None
            bodies.append((f"{method.upper()} {path}", name, schemas[name] if name else media["schema"]))
    return bodies


@SERVICES
def test_every_json_body_has_an_example_its_model_accepts(definition):
    known = models()
    bodies = request_bodies(definition)
    assert len(bodies) >= 5
    missing = [where for where, _, schema in bodies if not schema.get("examples")]
    assert missing == []
    for _, name, schema in bodies:
        for example in schema["examples"]:
            known[name].model_validate(example)  # raises, naming the field, when the example is wrong


def answers(spec: dict) -> list[tuple[str, str, dict, dict]]:
    """(where, media type, media object, response) of every success answer with a body."""
    return [(f"{method.upper()} {path} {status}", media_type, media, response)
            for path, operations in spec["paths"].items() for method, operation in operations.items()
            for status, response in operation["responses"].items() if status.startswith("2")
            for media_type, media in response.get("content", {}).items()]


@SERVICES
def test_every_success_answer_has_an_example_and_every_picture_a_description(definition):
    found = answers(spec_of(definition))
    assert len({where for where, *_ in found}) >= 14  # collab's 14 operations; the gateway has more
    missing = [(where, media_type) for where, media_type, media, _ in found
               if not media_type.startswith("image/") and not examples_in(media)]
    assert missing == []
    pictures = [(where, response["description"]) for where, media_type, _, response in found
                if media_type.startswith("image/")]
    assert pictures and all(description != "Successful Response" for _, description in pictures)


@SERVICES
def test_every_json_example_is_valid_for_the_answers_schema(definition):
    spec = spec_of(definition)
    wrong = []
    for where, media_type, media, _ in answers(spec):
        if media_type != JSON or "schema" not in media:
            continue
        validator = jsonschema_rs.validator_for({**media["schema"], "components": spec["components"]})
        wrong += [(where, error.message) for example in examples_in(media) for error in validator.iter_errors(example)]
    assert wrong == []


def example(spec: dict, path: str, name: str | None = None) -> dict:
    media = spec["paths"][path]["get"]["responses"]["200"]["content"][JSON]
    return media["examples"][name]["value"] if name else media["example"]


def fields(value: object, at: str = "") -> set[str]:
    """Every field of a JSON value as a path, the items of a list merged: ``.pages[].skus[].sku_id``."""
    if isinstance(value, dict):
        return {path for key, item in value.items() for path in (f"{at}.{key}", *fields(item, f"{at}.{key}"))}
    if isinstance(value, list):
        return {path for item in value for path in fields(item, f"{at}[]")}
    return set()


def contract_parts() -> list[tuple[str, type[BaseModel], dict, set[str]]]:
    """(what, the contract's model, the part of an example that is one, fields the answer leaves out)."""
    ours, tasks = spec_of(gateway), spec_of(collab)
    evaluated = {**example(ours, "/api/v1/jobs/{job_id}/evaluation", "evaluated")}
    del evaluated["job_id"]  # the gateway's own field beside the report's
    categories = example(ours, "/api/v1/config/profiles/{profile_id}/categories")["categories"]
    return [
        ("evaluation", EvaluationReport, evaluated, set()),
        ("result", ResultDocument, example(ours, "/api/v1/jobs/{job_id}/result"),
         {".pages[].images[].source_uri"}),  # the output's export leaves the claim-check URIs out
        ("page", PageResult, example(ours, "/api/v1/jobs/{job_id}/pages/{page}")["result"], set()),
        ("profile", ThresholdProfile, example(ours, "/api/v1/config/profiles/{profile_id}")["settings"], set()),
        *[("category schema", CategorySchema, schema, set()) for schema in categories],
        ("task", PageResult, example(tasks, "/api/v1/tasks/{task_id}", "task")["result"], set()),
        ("reworked task", PageResult, example(tasks, "/api/v1/tasks/{task_id}", "rework")["result"], set()),
        ("next task", PageResult, example(tasks, "/api/v1/tasks/next", "task")["result"], set()),
    ]


def test_examples_that_carry_a_contract_have_exactly_its_fields_and_valid_values():
    wrong = []
    for what, model, part, left_out in contract_parts():
        expected = fields(model.model_validate(part).model_dump(mode="json")) - left_out  # raises on a bad value
        if fields(part) != expected:
            wrong.append((what, sorted(fields(part) ^ expected)))
    assert wrong == []


def test_the_event_stream_example_is_frames_as_the_gateway_writes_them():
    media = spec_of(gateway)["paths"]["/api/v1/jobs/{job_id}/events"]["get"]["responses"]["200"]["content"]
    retry, *frames = media["text/event-stream"]["example"].split("\n\n")[:-1]
    kinds = {value for name, value in vars(timeline).items() if name.isupper() and isinstance(value, str)}
    assert retry.startswith("retry: ") and len(frames) >= 2
    for frame in frames:
        event_id, kind, data = (line.split(": ", 1)[1] for line in frame.splitlines())
        assert kind in kinds and sse_frame(int(event_id), kind, json.loads(data)) == frame + "\n\n"
