"""Property-based requests against the gateway's OpenAPI (schemathesis): no input yields a 5xx.

The gateway's routes run in-process on the real Postgres (its consumers are not started); every
generated request carries a valid token for a merchant of its own, so handlers are exercised
past authentication, and a second run sends no token at all.
"""

import asyncio
from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from skuflow_gateway.service import definition
from skuflow_platform.auth import mint_token
from skuflow_platform.db import migrate
from skuflow_platform.runtime import build_app
from skuflow_platform.settings import PlatformSettings

SECRET = "openapi-fuzz-secret-long-enough-for-hs256-signing"
EXAMPLES_PER_OPERATION = 60


def routes_only(app):
    """The app without its lifespan: no migrations at start, no Kafka consumers joining groups."""
    async def asgi(scope, receive, send):
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        await app(scope, receive, send)
    return asgi


@pytest.fixture(scope="module")
def schema(database_url, tmp_path_factory):
    asyncio.run(asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir))
    app = build_app(definition, PlatformSettings(database_url=database_url, jwt_secret=SECRET,
                                                 storage_root=tmp_path_factory.mktemp("storage")))
    return schemathesis.openapi.from_asgi("/openapi.json", routes_only(app))


@pytest.mark.parametrize("authorization", [f"Bearer {mint_token(user_id='f', merchant_id='m-fuzz', secret=SECRET)}",
                                           None])
def test_no_generated_request_makes_the_gateway_answer_5xx(schema, authorization):
    statuses: Counter = Counter()
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {op.label for op in operations} >= {"POST /api/v1/jobs", "GET /api/v1/jobs", "GET /api/v1/jobs/{job_id}"}
    headers = {"Authorization": authorization} if authorization else {}

    @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, suppress_health_check=list(HealthCheck),
              database=None)
    def probe(case):
        response = case.call(headers=headers)
        statuses[response.status_code] += 1
        assert response.status_code < 500, f"{case.operation.label}: {response.status_code} {response.text[:300]}"

    for operation in operations:
        given(case=operation.as_strategy())(probe)()
    assert sum(statuses.values()) >= len(operations) * 5
    print(f"schemathesis: {sum(statuses.values())} requests, statuses {dict(sorted(statuses.items()))}")
