"""End-to-end fixtures: the eight services as real processes (``stack.running_stack``)."""

import pytest

from tests.e2e.review_desk import LOCK_SECONDS, TIMER_SECONDS
from tests.e2e.stack import running_stack

PORT_OFFSET = 10000
MAX_UPLOAD_MB = 2


@pytest.fixture(scope="session")
def pipeline(database_url, kafka_bootstrap, tmp_path_factory):
    root = tmp_path_factory.mktemp("e2e")
    with running_stack(database_url, kafka_bootstrap, root, port_offset=PORT_OFFSET,
                       env={"SKUFLOW_MAX_UPLOAD_MB": str(MAX_UPLOAD_MB), "SKUFLOW_TASK_LOCK_SECONDS": str(LOCK_SECONDS),
                            "SKUFLOW_TASK_TIMER_SECONDS": str(TIMER_SECONDS)}) as stack:
        yield stack
