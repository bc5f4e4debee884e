"""Property-based requests against the public APIs' OpenAPI (schemathesis): no input yields a 5xx.

The gateway's and collab's routes run in-process on the real Postgres (their consumers are not
started); every generated request carries a valid token with the roles the API serves, for a
merchant of its own, so handlers are exercised past authentication; a second run sends no token.
"""

import asyncio
from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from skuflow_collab.service import definition as collab
from skuflow_gateway.service import definition as gateway
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


SERVICES = {
    "gateway": (gateway, ("merchant",), {"POST /api/v1/jobs", "GET /api/v1/jobs", "POST /api/v1/auth/login"}),
    "collab": (collab, ("annotator", "team_lead"), {"GET /api/v1/tasks", "POST /api/v1/tasks/{task_id}/complete"}),
}


def schema_of(definition, database_url, storage):
    asyncio.run(asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir))
    app = build_app(definition, PlatformSettings(database_url=database_url, jwt_secret=SECRET, storage_root=storage))
    return schemathesis.openapi.from_asgi("/openapi.json", routes_only(app))


@pytest.mark.parametrize("with_token", [True, False], ids=["token", "no-token"])
@pytest.mark.parametrize("service", sorted(SERVICES))
def test_no_generated_request_makes_a_service_answer_5xx(service, with_token, database_url, tmp_path):
    definition, roles, expected = SERVICES[service]
    schema = schema_of(definition, database_url, tmp_path / "storage")
    statuses: Counter = Counter()
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {op.label for op in operations} >= expected
    token = mint_token(user_id="f", merchant_id="m-fuzz", secret=SECRET, roles=roles)
    headers = {"Authorization": f"Bearer {token}"} if with_token else {}

    @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, suppress_health_check=list(HealthCheck),
              database=None)
    def probe(case):
        response = case.call(headers=headers)
        statuses[response.status_code] += 1
        assert response.status_code < 500, f"{case.operation.label}: {response.status_code} {response.text[:300]}"

    for operation in operations:
        given(case=operation.as_strategy())(probe)()
    assert sum(statuses.values()) >= len(operations) * 5
    print(f"schemathesis {service}: {sum(statuses.values())} requests, statuses {dict(sorted(statuses.items()))}")
