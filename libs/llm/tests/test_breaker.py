"""The breaker's state machine (seed-002 §6) and its local fallback while the shared store is down (C4)."""

from __future__ import annotations

from dataclasses import replace

from skuflow_llm.breaker import BreakerPolicy, BreakerState, CircuitBreaker, CircuitState
from skuflow_llm.clock import ManualClock
from skuflow_llm.errors import StateStoreUnavailable
from skuflow_llm.state.fallback import FallbackState
from skuflow_llm.state.local import LocalState

POLICY = BreakerPolicy()
OPEN = BreakerState(CircuitState.OPEN, failure_count=5, open_since=1000.0)


def failures(count: int, now: float = 1000.0) -> BreakerState:
    state = BreakerState()
    for _ in range(count):
        state = POLICY.on_failure(state, now)
    return state


def test_five_consecutive_failures_open_and_a_success_resets_the_count():
    assert failures(4).state is CircuitState.CLOSED
    assert POLICY.on_success(failures(4), 1000).failure_count == 0
    assert failures(5) == OPEN
    assert POLICY.admit(OPEN, 1059.9) == (OPEN, False)


def test_the_request_that_half_opens_is_the_first_probe():
    state, allowed = POLICY.admit(OPEN, 1060.0)
    assert allowed and (state.state, state.half_open_calls, state.half_open_since) == (CircuitState.HALF_OPEN, 1, 1060)
    state, allowed = POLICY.admit(state, 1061)
    assert allowed and state.half_open_calls == 2
    state, allowed = POLICY.admit(state, 1062)
    assert allowed and state.half_open_calls == 3
    assert POLICY.admit(state, 1063) == (state, False)  # at most 3 probes


def test_two_successful_probes_close():
    state, _ = POLICY.admit(OPEN, 1060)
    state = POLICY.on_success(state, 1061)
    assert (state.state, state.half_open_success) == (CircuitState.HALF_OPEN, 1)
    assert POLICY.on_success(state, 1062) == BreakerState()


def test_probes_that_cannot_reach_two_successes_reopen():
    state, _ = POLICY.admit(OPEN, 1060)
    state = POLICY.on_failure(state, 1060)
    state, _ = POLICY.admit(state, 1061)
    state = POLICY.on_success(state, 1061)
    state, _ = POLICY.admit(state, 1062)
    assert POLICY.on_failure(replace(state, half_open_calls=2), 1062).state is CircuitState.HALF_OPEN
    reopened = POLICY.on_failure(state, 1062)
    assert (reopened.state, reopened.open_since, reopened.half_open_calls) == (CircuitState.OPEN, 1062, 0)


def test_an_undecided_half_open_reopens_after_30_seconds():
    state, _ = POLICY.admit(OPEN, 1060)
    still_deciding, allowed = POLICY.admit(state, 1089)
    assert allowed and still_deciding.state is CircuitState.HALF_OPEN
    timed_out, allowed = POLICY.admit(replace(state, half_open_calls=3), 1090)
    assert not allowed and (timed_out.state, timed_out.open_since) == (CircuitState.OPEN, 1090)


class SwitchableStore(LocalState):
    """A shared store whose network can be cut."""

    reachable = True

    async def update_breaker(self, model, change):
        if not self.reachable:
            raise StateStoreUnavailable("connection refused")
        return await super().update_breaker(model, change)


async def test_without_the_shared_store_the_breaker_runs_on_its_local_copy_then_resyncs():
    clock = ManualClock(1000)
    shared = SwitchableStore()
    breaker = CircuitBreaker("m", FallbackState(shared), POLICY, clock)
    await breaker.record_failure()
    shared.reachable = False
    for _ in range(4):  # the local copy starts from the shared count (1) and opens at 5
        await breaker.record_failure()
    assert not await breaker.allow_request()
    assert shared.breakers["m"].failure_count == 1

    shared.reachable = True  # the shared state (CLOSED, 1 failure) wins again
    assert await breaker.allow_request()
    assert (await breaker.state()).state is CircuitState.CLOSED


async def test_a_recently_seen_closed_breaker_admits_without_asking_the_store():
    clock = ManualClock(1000)
    shared = SwitchableStore()
    breaker = CircuitBreaker("m", shared, POLICY, clock)
    assert await breaker.allow_request()
    shared.reachable = False
    clock.advance(2.9)
    assert await breaker.allow_request()
