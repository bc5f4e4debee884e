"""Lets the extractor tests import their IR page builders (``extractor_pages``) under importlib mode, and
gives the service tests the extractor's handlers over the real Postgres (``service``)."""

import sys
from pathlib import Path

import pytest

from skuflow_extractor.service import definition, subscriptions

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="module")
async def service(service_of):
    async with service_of(definition, subscriptions) as handlers:
        yield handlers
