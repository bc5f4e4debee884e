"""Rate limiting per natural minute (seed-002 §7) and the budget in integer micro-USD (§11)."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY

from skuflow_llm.budget import TokenBudgetGuard, to_micro
from skuflow_llm.clock import ManualClock
from skuflow_llm.errors import LLMUnavailableError
from skuflow_llm.limiter import GlobalRateLimiter, RateLimit, minute_of
from skuflow_llm.state.local import LocalState

LIMITS = {"gemini": RateLimit(qpm=2, tpm=10_000), "qwen": RateLimit(qpm=1, tpm=10_000)}


def limiter(state, clock):
    return GlobalRateLimiter(state, LIMITS, {"gemini": "qwen"}, clock, clock.sleep, jitter=lambda a, b: b)


async def test_windows_follow_the_natural_minute():
    clock, state = ManualClock(1_767_225_659.0), LocalState()  # hh:mm:59
    rate = limiter(state, clock)
    assert await rate.acquire("gemini", 100) and await rate.acquire("gemini", 100)
    assert not await rate.acquire("gemini", 100)
    clock.advance(1)  # hh:mm+1:00
    assert await rate.acquire("gemini", 100)
    assert await state.window("gemini", minute_of(clock.now())) == (1, 100)


async def test_a_token_rejection_counts_neither_dimension():
    clock, state = ManualClock(), LocalState()
    rate = limiter(state, clock)
    assert not await rate.acquire("gemini", 10_001)
    assert await state.window("gemini", minute_of(clock.now())) == (0, 0)


async def test_wait_or_degrade_tries_the_fallback_then_waits_once():
    clock, state = ManualClock(1_767_225_600.0), LocalState()
    rate = limiter(state, clock)
    assert [await rate.wait_or_degrade("gemini", 10) for _ in range(3)] == ["gemini", "gemini", "qwen"]
    clock.advance(57)
    assert await rate.wait_or_degrade("gemini", 10) == "gemini"  # waited 3 s into the next minute
    assert clock.slept == [3.0]
    assert [await rate.wait_or_degrade("gemini", 10) for _ in range(2)] == ["gemini", "qwen"]
    with pytest.raises(LLMUnavailableError, match="All models rate limited"):
        await rate.wait_or_degrade("gemini", 10)
    assert clock.slept == [3.0, 3.0]
    assert rate.limit_of("unknown") == RateLimit(30, 1_000_000)


def test_usd_becomes_integer_micro_usd_without_drift():
    assert to_micro(0.29) == 290_000 and to_micro(500.0) == 500_000_000
    assert sum(to_micro(0.1) for _ in range(10)) == to_micro(1.0)


async def test_reserve_commit_and_rollback_move_exact_amounts():
    clock, state = ManualClock(), LocalState()
    budget = TokenBudgetGuard(state, daily_usd=500, per_merchant_usd=50, clock=clock)
    token = await budget.reserve("m-1", 0.004125)
    assert token.est_cost_micro == 4125
    assert await state.spent(budget.today(), ["daily", "merchant:m-1"]) == {"daily": 4125, "merchant:m-1": 4125}
    await budget.commit(token, 0.00325)
    assert await state.spent(budget.today(), ["daily", "merchant:m-1"]) == {"daily": 3250, "merchant:m-1": 3250}
    await budget.rollback(await budget.reserve("m-1", 0.01))
    assert await state.spent(budget.today(), ["daily", "merchant:m-1"]) == {"daily": 3250, "merchant:m-1": 3250}
    await budget.rollback(await budget.reserve(None, 1.5))
    check = await budget.check("m-1")
    assert (check.ok, check.daily_used, check.merchant_used) == (True, 0.00325, 0.00325)
    assert check.remaining == pytest.approx(500 - 0.00325)


async def test_the_budget_is_exhausted_at_its_limit_globally_or_per_merchant():
    clock, state = ManualClock(), LocalState()
    budget = TokenBudgetGuard(state, daily_usd=1.0, per_merchant_usd=0.5, clock=clock)
    await budget.commit(await budget.reserve("m-1", 0.5), 0.5)
    assert not (await budget.check("m-1")).ok
    assert (await budget.check("m-2")).ok
    await budget.reserve("m-2", 0.5)
    assert not (await budget.check("m-3")).ok
    clock.advance(86_400)
    assert (await budget.check("m-1")).ok  # a new UTC day


async def test_the_budget_and_todays_spend_are_served_for_the_spend_alert_to_compare():
    budget = TokenBudgetGuard(LocalState(), daily_usd=2.0, per_merchant_usd=1.0, clock=ManualClock())
    assert REGISTRY.get_sample_value("llm_daily_budget_usd") == 2.0
    await budget.commit(await budget.reserve("m-1", 0.5), 1.7)
    await budget.check("m-1")
    assert REGISTRY.get_sample_value("llm_cost_usd_daily") == 1.7


async def test_the_daily_spend_gauge_starts_again_at_midnight_without_a_new_check():
    clock = ManualClock(1_767_311_000.0)  # 23:43:20 UTC
    budget = TokenBudgetGuard(LocalState(), daily_usd=2, per_merchant_usd=1, clock=clock)
    await budget.commit(await budget.reserve("m-1", 0.5), 0.9)
    await budget.check("m-1")
    assert REGISTRY.get_sample_value("llm_cost_usd_daily") == 0.9
    clock.advance(3600)  # past midnight, no call made since
    assert REGISTRY.get_sample_value("llm_cost_usd_daily") == 0.0


async def test_a_commit_after_midnight_settles_the_day_it_reserved_on():
    clock, state = ManualClock(1_767_311_999.0), LocalState()  # 23:59:59 UTC
    budget = TokenBudgetGuard(state, daily_usd=500, per_merchant_usd=50, clock=clock)
    token = await budget.reserve(None, 0.002)
    clock.advance(2)
    await budget.commit(token, 0.003)
    assert await state.spent(token.day, ["daily"]) == {"daily": 3000}
    assert await state.spent(budget.today(), ["daily"]) == {}
