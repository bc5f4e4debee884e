"""Hostile files end with a result or a clear reason, inside their budget, and never crash the service.

Regressions of what was seen against the running stack: a stack overflow raised in the service
process (job stuck in PROCESSING), an unpicklable MuPDF error from a page-tree loop (retried, then
dead-lettered), a truncated PDF silently repaired (no warning).
"""

import asyncio
import os

import pytest

from skuflow_parser.domain.security import SecurityLimits
from skuflow_parser.pages import ParserConfig
from skuflow_parser.workers import REPAIRED, PagePool, WorkerCrashed
from tests.fuzz.hostile import HOSTILE, mutations

HASH = "ab" * 32


@pytest.fixture(scope="module")
def pool():
    pool = PagePool(workers=1, max_tasks_per_child=20, page_budget_seconds=30,
                    config=ParserConfig(ocr_enabled=False), document_budget_seconds=30)
    yield pool
    pool.close()


def outcome(pool: PagePool, name: str, tmp_path) -> tuple:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(HOSTILE[name]())

    async def run():
        checked = await pool.check(str(path), SecurityLimits())
        pages = [await pool.parse(str(path), index, HASH) for index in range(min(checked.page_count, 3))]
        return checked, [p.page for p in pages]

    return asyncio.run(run())


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_every_hostile_file_ends_with_pages_or_a_reason(pool, name, tmp_path):
    checked, pages = outcome(pool, name, tmp_path)
    assert (checked.reason is None) == bool(pages)
    assert checked.reason is None or checked.message
    assert all(page.status == "ok" or page.failure_reason for page in pages)


def test_a_stack_overflow_while_opening_refuses_the_document_with_a_reason(pool, tmp_path):
    checked, _ = outcome(pool, "deep_nesting", tmp_path)
    assert checked.reason == "corrupt_pdf" and "stack overflow" in checked.message


def test_a_page_tree_loop_fails_its_page_as_plain_data(pool, tmp_path):
    _, pages = outcome(pool, "page_tree_loop", tmp_path)
    assert pages[0].status == "failed" and "cycle in page tree" in pages[0].failure_reason


def test_a_truncated_pdf_is_read_with_a_warning(pool, tmp_path):
    checked, pages = outcome(pool, "truncated_catalog", tmp_path)
    assert checked.warnings == (REPAIRED,) and pages


def test_a_worker_killed_between_pages_costs_no_page_and_the_pool_recovers(pool, tmp_path):
    path = tmp_path / "c.pdf"
    path.write_bytes(HOSTILE["dangling_references"]())

    async def run():
        worker = next(iter(pool._pool._processes.values()))
        worker.kill()  # as the OOM killer would, just before the page is handed over
        crashed = await pool.parse(str(path), 0, HASH)
        return crashed, await pool.parse(str(path), 0, HASH)

    crashed, after = asyncio.run(run())
    assert crashed.page.status == "ok"  # the pool broken by a dead worker is replaced, not blamed on the page
    assert after.page.status == "ok"


def test_a_worker_killed_under_two_pages_in_flight_costs_neither_page(pool, tmp_path):
    path = tmp_path / "c.pdf"
    path.write_bytes(HOSTILE["dangling_references"]())

    async def run():
        pages = [asyncio.ensure_future(pool.parse(str(path), 0, HASH)) for _ in range(2)]
        await asyncio.sleep(0.2)  # both handed over: one in the worker, one queued for it
        next(iter(pool._pool._processes.values())).kill()
        return await asyncio.gather(*pages)

    # both see the pool break; one replaces it and neither kills the other's retry on the new one
    assert [parsed.page.status for parsed in asyncio.run(run())] == ["ok", "ok"]


def test_a_task_that_kills_its_worker_again_on_a_fresh_pool_is_blamed_for_it(pool, tmp_path):
    with pytest.raises(WorkerCrashed, match="died while reading page 1"):
        asyncio.run(pool.run("page 1", 30, os._exit, 1))  # as a page that crashes MuPDF would
    path = tmp_path / "c.pdf"
    path.write_bytes(HOSTILE["dangling_references"]())
    assert asyncio.run(pool.parse(str(path), 0, HASH)).page.status == "ok"


def die_while_answering() -> None:
    """As a worker killed while it sends a page back: the start of an answer in the pipe, then gone."""
    import gc
    import multiprocessing.queues
    import signal
    import struct

    answers = next(obj for obj in gc.get_objects() if isinstance(obj, multiprocessing.queues.SimpleQueue))
    answers._writer._send(struct.pack("!i", 1_000_000) + b"the first bytes of a page")
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_killed_while_sending_its_answer_is_a_crash_not_a_timeout(pool, tmp_path):
    """Python's pool waits for ever for the rest of such an answer; the page must not wait out its budget."""
    with pytest.raises(WorkerCrashed, match="died while reading page 1"):
        asyncio.run(pool.run("page 1", 30, die_while_answering))
    path = tmp_path / "c.pdf"
    path.write_bytes(HOSTILE["dangling_references"]())
    assert asyncio.run(pool.parse(str(path), 0, HASH)).page.status == "ok"


def test_damaged_variants_of_a_catalog_all_end_with_pages_or_a_reason(pool, tmp_path):
    """A CI-sized `make fuzz`: 60 mutations (truncations, byte flips, splices, swapped chunks)."""
    path = tmp_path / "m.pdf"

    async def run(data: bytes):
        path.write_bytes(data)
        checked = await pool.check(str(path), SecurityLimits())
        pages = [(await pool.parse(str(path), index, HASH)).page for index in range(min(checked.page_count, 2))]
        return checked, pages

    for name, data in mutations(seed=7, count=60):
        checked, pages = asyncio.run(run(data))
        assert (checked.reason is None) == bool(pages), name
        assert all(page.status == "ok" or page.failure_reason for page in pages), name
