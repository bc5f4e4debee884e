"""A CI-sized `make chaos` on the end-to-end stack: services killed, the broker and Postgres
restarted and a service frozen past its session timeout while jobs run; nothing may be lost."""

import pytest

from skuflow_cli.supervisor import SERVICES
from tests.chaos.run import Plan, run_on

pytestmark = pytest.mark.e2e

CI_PLAN = Plan(jobs=6, pages=2, kills=2, postgres_restarts=1, postgres_down=(8, 12), broker_restarts=1,
               broker_down=(4, 8), sigstops=1, sigstop_seconds=12, timeout=600)


def test_nothing_is_lost_hung_or_duplicated_while_the_stack_is_disrupted(pipeline, tmp_path):
    figures = run_on(pipeline, CI_PLAN, tmp_path)
    assert figures["jobs"] == CI_PLAN.jobs
    assert {name: value for name, value in figures.items() if name != "jobs"} == {
        "jobs hung": 0, "pages lost": 0, "SKUs missing": 0, "duplicate effects": 0, "manual interventions": 0}
    pipeline.supervisor.wait_ready(list(SERVICES), timeout=120)  # all back for the tests that follow
