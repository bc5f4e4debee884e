"""Lets the extractor tests import their IR page builders (``extractor_pages``) under importlib mode, and
gives the service tests the extractor's handlers over the real Postgres (``service``)."""

import asyncio
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from skuflow_extractor.service import definition, subscriptions
from skuflow_platform.db import Database, migrate
from skuflow_platform.storage import LocalStorage

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="module")
async def service(database_url, tmp_path_factory):
    await asyncio.to_thread(migrate, database_url, definition.schema, definition.versions_dir)
    db = Database(database_url)
    storage = LocalStorage(tmp_path_factory.mktemp("storage"))
    handlers = {topic.name: handler for topic, handler in subscriptions(SimpleNamespace(storage=storage))}
    yield SimpleNamespace(db=db, storage=storage, handlers=handlers)
    await db.close()
