"""Breaker, rate-limit and budget state in Postgres: the same behaviour as local state, shared by OS
processes (each a replica with its own ``LLMService``), and a local fallback while Postgres is unreachable.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
from llm_pages import GEMINI, QWEN

from skuflow_llm.bootstrap import open_state
from skuflow_llm.breaker import BreakerPolicy, CircuitBreaker, CircuitState
from skuflow_llm.clock import ManualClock
from skuflow_llm.limiter import RateLimit
from skuflow_llm.settings import LLMSettings
from skuflow_llm.state.fallback import FallbackState
from skuflow_llm.state.local import LocalState
from skuflow_llm.state.postgres import PostgresState, migrate_state
from skuflow_llm.testing import Reply

REPLICA = Path(__file__).parent / "llm_replica.py"
DAY = dt.date(2026, 1, 1)
PAGE_B = json.dumps({"page_type": "B", "confidence": 0.9})


@pytest.fixture(scope="module")
def llm_database(database_url):
    migrate_state(database_url)
    return database_url


@pytest.fixture
def clean_database(llm_database):
    engine = sa.create_engine(llm_database)
    with engine.begin() as conn:
        conn.execute(sa.text("TRUNCATE llm.circuit_breakers, llm.rate_windows, llm.budget_spend"))
    engine.dispose()
    return llm_database


# the Postgres case is marked infra by hand: the conftest marks only the fixtures a test names
@pytest.fixture(params=["local", pytest.param("postgres", marks=pytest.mark.infra)])
async def store(request):
    if request.param == "local":
        yield LocalState()
        return
    state = PostgresState(request.getfixturevalue("clean_database"))
    yield state
    await state.close()


async def test_a_call_over_either_limit_counts_nothing(store):
    limit = RateLimit(qpm=2, tpm=1000)
    assert await store.count_call(GEMINI, 100, limit, 600)
    assert not await store.count_call(GEMINI, 100, limit, 500)  # QPM fits, TPM does not
    assert await store.window(GEMINI, 100) == (1, 600)
    assert await store.count_call(GEMINI, 100, limit, 400)
    assert not await store.count_call(GEMINI, 100, limit, 0)  # QPM full
    assert await store.window(GEMINI, 100) == (2, 1000)
    assert await store.count_call(GEMINI, 101, limit, 1000)  # a new natural minute starts empty
    assert not await store.count_call(QWEN, 101, limit, 1001)


async def test_breaker_transitions_are_stored(store):
    clock = ManualClock()
    breaker = CircuitBreaker(GEMINI, store, BreakerPolicy(), clock)
    for _ in range(5):
        await breaker.record_failure()
    assert not await CircuitBreaker(GEMINI, store, BreakerPolicy(), clock).allow_request()
    clock.advance(60)
    assert await CircuitBreaker(GEMINI, store, BreakerPolicy(), clock).allow_request()
    state = await breaker.state()
    assert (state.state, state.half_open_calls) == (CircuitState.HALF_OPEN, 1)


async def test_spend_adds_and_refunds_exactly(store):
    await store.add_spend(DAY, {"daily": 3250, "merchant:m-1": 3250})
    await store.add_spend(DAY, {"daily": -1250, "merchant:m-1": -1250})
    await store.add_spend(DAY, {"daily": 7})
    assert await store.spent(DAY, ["daily", "merchant:m-1", "merchant:m-2"]) == {"daily": 2007, "merchant:m-1": 2000}


def replicas(fake, database_url, now: float, counts: list[int], **settings) -> list[list[dict]]:
    """Run one replica process per count, all at once, and return what each saw."""
    env = {**os.environ, "SKUFLOW_LLM_STATE_DATABASE_URL": database_url,
           "SKUFLOW_LLM_GEMINI_API_KEY": "k", "SKUFLOW_LLM_GEMINI_BASE_URL": fake.base_url,
           "SKUFLOW_LLM_QWEN_API_KEY": "k", "SKUFLOW_LLM_QWEN_BASE_URL": fake.openai_base_url,
           "SKUFLOW_LLM_LANGFUSE_ENABLED": "false",
           **{f"SKUFLOW_LLM_{name.upper()}": str(value) for name, value in settings.items()}}
    processes = [subprocess.Popen([sys.executable, str(REPLICA), str(now), str(count)], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for count in counts]
    outputs = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        outputs.append(json.loads(out.strip().splitlines()[-1]))
    return outputs


NOW = 1_767_225_600.0


def test_a_breaker_opened_by_one_replica_is_open_for_another(fake, clean_database):
    fake.default(GEMINI, Reply(status=500))
    fake.default(QWEN, Reply(PAGE_B))
    [first] = replicas(fake, clean_database, NOW, [5])
    assert [o["model"] for o in first] == [QWEN] * 5
    [second] = replicas(fake, clean_database, NOW + 1, [2])
    assert [o["model"] for o in second] == [QWEN] * 2
    assert len(fake.seen(GEMINI)) == 5  # the second replica never asked the open primary

    fake.default(GEMINI, Reply(PAGE_B))
    [recovered] = replicas(fake, clean_database, NOW + 61, [2])  # half-open probes, then closed
    assert [o["model"] for o in recovered] == [GEMINI] * 2
    [after] = replicas(fake, clean_database, NOW + 62, [1])
    assert after == [{"model": GEMINI, "reason": None}]


def test_concurrent_replicas_share_one_rate_window(fake, clean_database):
    fake.default(GEMINI, Reply(PAGE_B))
    fake.default(QWEN, Reply(PAGE_B))
    outcomes = [o for replica in replicas(fake, clean_database, NOW, [10, 10], gemini_qpm=15) for o in replica]
    assert sum(o["model"] == GEMINI for o in outcomes) == 15
    assert [o for o in outcomes if o["model"] == QWEN] == [{"model": QWEN, "reason": "rate_limit"}] * 5


def test_budget_spent_by_one_replica_counts_for_another(fake, clean_database):
    fake.default(GEMINI, Reply(PAGE_B, input_tokens=1000, output_tokens=200))
    fake.default(QWEN, Reply(PAGE_B, input_tokens=1000, output_tokens=200))
    [first] = replicas(fake, clean_database, NOW, [3], per_merchant_budget_usd=0.01)
    assert [o["model"] for o in first] == [GEMINI] * 3  # 3 × 3250 micro-USD < 10000
    [second] = replicas(fake, clean_database, NOW, [1], per_merchant_budget_usd=0.01)
    assert [o["model"] for o in second] == [GEMINI]
    [third] = replicas(fake, clean_database, NOW, [1], per_merchant_budget_usd=0.01)
    assert third == [{"model": QWEN, "reason": "budget"}]
    engine = sa.create_engine(clean_database)
    with engine.connect() as conn:
        spent = dict(conn.execute(sa.text("SELECT scope, spent_micro FROM llm.budget_spend")).all())
    engine.dispose()
    qwen_call = 1000 * 0.8 + 200 * 4.0  # micro-USD at $0.80/M in, $4/M out
    assert spent == {"daily": 4 * 3250 + qwen_call, "merchant:m-1": 4 * 3250 + qwen_call}


async def test_an_unreachable_database_falls_back_to_local_state_and_resyncs(clean_database):
    clock = ManualClock()
    shared = PostgresState(clean_database)
    unreachable = PostgresState("postgresql+psycopg://skuflow:skuflow@127.0.0.1:1/skuflow")
    state = FallbackState(shared)
    breaker = CircuitBreaker(GEMINI, state, BreakerPolicy(), clock)
    for _ in range(5):
        await breaker.record_failure()
    assert not await breaker.allow_request()  # OPEN in Postgres, mirrored locally

    state.shared = unreachable
    assert not await breaker.allow_request()  # still OPEN from the local copy
    await state.add_spend(DAY, {"daily": 500})
    assert await state.count_call(GEMINI, 1, RateLimit(1, 100), 10)

    state.shared = shared
    clock.advance(60)
    assert await breaker.allow_request()  # Postgres again: its state decides (OPEN → HALF_OPEN)
    assert (await shared.update_breaker(GEMINI, lambda s: (s, s))).state is CircuitState.HALF_OPEN
    await state.add_spend(DAY, {"daily": 1})
    assert await shared.spent(DAY, ["daily"]) == {"daily": 501}  # the outage's spend reached the ledger
    await shared.close()
    await unreachable.close()


UNREACHABLE_URL = "postgresql+psycopg://skuflow:skuflow@127.0.0.1:1/skuflow"


async def test_a_service_whose_shared_state_is_unreachable_at_start_is_built_and_counts_locally():
    """A service is built before it waits out an absent Postgres: opening the shared store asks nothing of
    it, and the calls it counts meanwhile are counted in the process (they reach the ledger once it answers)."""
    state = open_state(LLMSettings(state_database_url=UNREACHABLE_URL))
    assert await state.count_call(GEMINI, 1, RateLimit(1, 100), 10)
    assert not await state.count_call(GEMINI, 1, RateLimit(1, 100), 10)  # the local window is full
    await state.shared.close()


async def test_the_shared_store_makes_its_schema_on_first_use(llm_database):
    engine = sa.create_engine(llm_database)
    with engine.begin() as conn:
        conn.execute(sa.text("DROP SCHEMA llm CASCADE"))
    state = open_state(LLMSettings(state_database_url=llm_database))
    assert await state.count_call(GEMINI, 1, RateLimit(5, 100), 10)
    with engine.begin() as conn:
        assert conn.execute(sa.text("SELECT requests FROM llm.rate_windows")).scalar_one() == 1
    engine.dispose()
    await state.shared.close()
