"""The worker pool: pages parse in another process, and a page over its budget is abandoned."""

import asyncio

import pytest
from pdf_samples import born_digital

from skuflow_parser.pages import ParserConfig
from skuflow_parser.workers import PagePool, PageTimeout
from tests.fuzz.hostile import decompression_bomb

HASH = "12345678" * 8


def test_a_page_is_parsed_in_a_worker_and_an_overrun_page_times_out_without_breaking_the_pool(tmp_path):
    pdf, slow = tmp_path / "c.pdf", tmp_path / "slow.pdf"
    born_digital().save(pdf)
    slow.write_bytes(decompression_bomb(megabytes=200))  # seconds of work: a stalled event loop cannot beat it
    pool = PagePool(workers=1, max_tasks_per_child=5, page_budget_seconds=60,
                    config=ParserConfig(ocr_enabled=False))
    try:
        parsed = asyncio.run(pool.parse(str(pdf), 0, HASH))
        assert "SF-0012" in parsed.page.raw_text and parsed.images[0].data
        pool.page_budget_seconds = 0.05
        late = asyncio.run(pool.parse(str(slow), 0, HASH)).page
        assert late.status == "failed" and late.failure_reason.startswith("page_timeout: page 1 took longer")
        pool.page_budget_seconds = 60
        assert asyncio.run(pool.parse(str(pdf), 0, HASH)).page.status == "ok"
    finally:
        pool.close()


def test_more_pages_in_flight_than_the_workers_task_limit_all_parse_on_renewed_workers(tmp_path):
    """Python's own task limit per worker can leave no worker behind with pages queued (gh-115634)."""
    pdf = tmp_path / "c.pdf"
    born_digital().save(pdf)
    pool = PagePool(workers=1, max_tasks_per_child=2, page_budget_seconds=30, config=ParserConfig(ocr_enabled=False))

    async def in_flight(count: int):
        first = pool.worker_pids()
        pages = await asyncio.gather(*[pool.parse(str(pdf), 0, HASH) for _ in range(count)])
        return first, [parsed.page.status for parsed in pages]

    try:
        asyncio.run(pool.parse(str(pdf), 0, HASH))
        first, statuses = asyncio.run(in_flight(7))
        assert statuses == ["ok"] * 7
        assert first and set(pool.worker_pids()).isdisjoint(first)
    finally:
        pool.close()


def test_a_page_that_finished_past_its_budget_is_over_budget_even_when_the_loop_hears_late(tmp_path):
    """Under load the event loop can wake after the worker is done; the page's fate must not hang on that."""
    import time

    pool = PagePool(workers=1, max_tasks_per_child=5, page_budget_seconds=30, config=ParserConfig(ocr_enabled=False))

    async def heard_late(budget: float, work: float):
        page = asyncio.ensure_future(pool.run("a page", budget, time.sleep, work))
        await asyncio.sleep(0.1)  # handed to the worker
        time.sleep(2)  # a busy loop: the worker is done long before the loop looks again
        return await page

    try:
        asyncio.run(pool.run("a warm-up", 30, abs, -1))
        assert asyncio.run(heard_late(budget=1.5, work=0.2)) is None
        with pytest.raises(PageTimeout, match=r"a page took longer than 0\.5s"):
            asyncio.run(heard_late(budget=0.5, work=1))
    finally:
        pool.close()


def a_long_page(tally: str) -> str:
    """A page that takes past two looks for dead workers, tallied each time it is read."""
    import time

    with open(tally, "a") as handle:
        handle.write("read\n")
    time.sleep(3)
    return "read"


def test_a_long_page_on_a_pool_renewed_under_it_is_waited_for_not_read_again(tmp_path):
    """A renewed pool forgets its workers while they finish what it holds: that is no dead worker."""
    tally = tmp_path / "tally"
    pool = PagePool(workers=1, max_tasks_per_child=1, page_budget_seconds=30, config=ParserConfig(ocr_enabled=False))

    async def long_then_another():
        long = asyncio.ensure_future(pool.run("a long page", 30, a_long_page, str(tally)))
        await asyncio.sleep(0.5)  # handed over: the next page renews the pool
        return await asyncio.gather(long, pool.run("the next page", 30, abs, -1))

    try:
        assert asyncio.run(long_then_another()) == ["read", 1]
        assert tally.read_text() == "read\n"
    finally:
        pool.close()


def test_workers_die_with_their_service_even_when_it_is_killed(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    pdf = tmp_path / "c.pdf"
    born_digital().save(pdf)
    service = subprocess.Popen([sys.executable, "-c", f"""
import asyncio, os, sys
from skuflow_parser.pages import ParserConfig
from skuflow_parser.workers import PagePool
if __name__ == "__main__":
    pool = PagePool(workers=1, max_tasks_per_child=5, page_budget_seconds=60, config=ParserConfig(ocr_enabled=False))
    asyncio.run(pool.parse({str(pdf)!r}, 0, {HASH!r}))
    print(*[p.pid for p in pool._pool._processes.values()], flush=True)
    import time; time.sleep(120)
"""], stdout=subprocess.PIPE, text=True)
    worker = int(service.stdout.readline())
    os.kill(worker, 0)
    service.send_signal(signal.SIGKILL)
    service.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    raise AssertionError(f"worker {worker} outlived its killed service")
