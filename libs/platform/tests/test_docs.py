"""The API documentation pages every service serves work offline: they load their scripts and styles
from the service itself, never from a CDN (issue 41, item 10: /docs was blank without the internet)."""

import re
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from fastapi import APIRouter

from skuflow_platform.runtime import ServiceDefinition, build_app
from skuflow_platform.settings import PlatformSettings
from skuflow_platform.tables import platform_tables

metadata = sa.MetaData(schema="docs_test")
tables = platform_tables(metadata)
REFERENCE = re.compile(r"""(?:src|href|url)\s*[=:]\s*['"]([^'"]+)['"]""")


def service() -> ServiceDefinition:
    router = APIRouter()

    @router.get("/api/v1/hello")
    async def hello() -> dict:
        return {"hello": "world"}

    return ServiceDefinition(name="docs-test", default_port=0, metadata=metadata, tables=tables,
                             versions_dir=Path("."), subscriptions=lambda ctx: [], routes=lambda ctx: router)


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
async def test_the_documentation_pages_load_only_their_own_assets(page):
    app = build_app(service(), PlatformSettings(database_url="postgresql+psycopg://nobody@127.0.0.1:1/none"))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://service") as client:
        html = (await client.get(page)).text
        assets = REFERENCE.findall(html)
        assert any(a.endswith(".js") for a in assets), html
        assert all(a.startswith("/") and not a.startswith("//") for a in assets), assets
        for asset in assets:
            assert (await client.get(asset)).status_code == 200, asset
