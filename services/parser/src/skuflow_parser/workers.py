"""Document checks and page parsing in worker processes (C9).

MuPDF and OCR run off the event loop and out of the service's process: a hostile file that
overflows MuPDF's stack, loops or crashes the process costs a worker, never the consumer. A
task past its time budget is abandoned (its worker killed); workers are recycled after about
``max_tasks_per_child`` tasks each so leaks cannot accumulate, and die with the service (Linux
parent-death signal). Whatever goes wrong inside a worker comes back as plain data (a reason
string), because MuPDF's exceptions can hold objects that cannot cross a process boundary.

Two ways Python's process pool (3.11) loses a task without saying so are guarded here: its own
``max_tasks_per_child`` can leave no worker behind with tasks queued (CPython gh-115634), so the
pool is renewed whole instead; and a worker killed while it sends an answer leaves half a message
in the pipe that the pool waits on for ever, so a pool with a dead worker it has not noticed is
treated as broken.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import ctypes
import logging
import multiprocessing
import signal
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TypeVar

import pymupdf

from skuflow_parser.backends import ocr_backend
from skuflow_parser.backends.pymupdf_backend import ImageCache, open_document
from skuflow_parser.domain.document import UnreadableDocument
from skuflow_parser.domain.security import SecurityLimits
from skuflow_parser.metrics import WORKER_MEMORY, Counts, add_worker_counts, worker_counts
from skuflow_parser.pages import PageParse, ParserConfig, failed_parse, parse_page
from skuflow_parser.pipeline import open_checked

log = logging.getLogger(__name__)
T = TypeVar("T")

OPEN_DOCUMENTS = 2  # per worker: consecutive pages of one job reuse the opened document
_documents: OrderedDict[str, tuple[pymupdf.Document, ImageCache]] = OrderedDict()


PR_SET_PDEATHSIG = 1
STALL_CHECK_SECONDS = 1.0  # how often a waiting task looks for a dead worker its pool has not noticed


class PageTimeout(Exception):
    """The task took longer than its budget."""


class WorkerCrashed(Exception):
    """The worker process died while handling the task (a MuPDF crash, the OOM killer)."""


@dataclass(frozen=True)
class DocumentCheck:
    """The pre-check of a whole document, as plain data: its page count or why it is refused."""

    page_count: int = 0
    warnings: tuple[str, ...] = ()
    reason: str | None = None
    message: str = ""


REPAIRED = "the PDF was damaged and had to be repaired when opened; some content may be missing"


def _die_with_parent() -> None:
    """Ask Linux to kill this worker when the service process dies, even by SIGKILL."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _start_worker(config: ParserConfig) -> None:
    _die_with_parent()
    if config.ocr_enabled and ocr_backend.warm_up(config.ocr) != ocr_backend.WARM_UP_TEXT:
        log.error("the OCR engine did not read its warm-up line: scanned pages will read badly or not at all")


def check_in_worker(pdf_path: str, limits: SecurityLimits) -> DocumentCheck:
    try:
        with open(pdf_path, "rb") as handle:
            doc = open_checked(handle.read(), limits)
    except UnreadableDocument as exc:
        return DocumentCheck(reason=exc.reason, message=exc.message)
    except Exception as exc:  # MuPDF's own failures (stack overflow, broken trees): plain text only
        return DocumentCheck(reason="corrupt_pdf", message=f"the file is not a readable PDF ({_describe(exc)})")
    try:
        return DocumentCheck(page_count=doc.page_count, warnings=(REPAIRED,) if doc.is_repaired else ())
    finally:
        doc.close()


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:300]


def _document(path: str) -> tuple[pymupdf.Document, ImageCache]:
    if path not in _documents:
        with open(path, "rb") as handle:
            data = handle.read()
        _documents[path] = (open_document(data), ImageCache())
        while len(_documents) > OPEN_DOCUMENTS:
            doc, _ = _documents.popitem(last=False)[1]
            doc.close()
    _documents.move_to_end(path)
    return _documents[path]


def as_parsed(parsed: PageParse) -> PageParse:
    """The page as parsed: what a caller that does nothing more with it in the worker gets back."""
    return parsed


def parse_in_worker(pdf_path: str, index: int, file_hash: str, config: ParserConfig,
                    then: Callable[[PageParse], T] = as_parsed) -> T:
    try:
        doc, cache = _document(pdf_path)
        parsed = parse_page(doc, index, file_hash, cache, config)
    except Exception as exc:
        _documents.pop(pdf_path, None)
        parsed = failed_parse(index + 1, f"unreadable_page: {_describe(exc)}")
    return then(parsed)


_sent: Counts = {}  # in a worker: what it counted up to its last task, already sent back


def counted(task: Callable, *args: object) -> tuple[object, Counts]:
    """``task(*args)`` in a worker, and what the worker's counters counted meanwhile (for the service's)."""
    result = task(*args)
    now = worker_counts()
    counts = {key: value - _sent.get(key, 0.0) for key, value in now.items() if value != _sent.get(key, 0.0)}
    _sent.update(now)
    return result, counts


class PagePool:
    """A service's worker processes: pages parsed and documents checked within their budgets, a task never
    lost to a worker's death (run again once on fresh workers, then blamed)."""

    def __init__(self, *, workers: int, max_tasks_per_child: int, page_budget_seconds: float,
                 config: ParserConfig, document_budget_seconds: float = 120.0) -> None:
        self.workers, self.max_tasks_per_child = workers, max_tasks_per_child
        self.page_budget_seconds, self.config = page_budget_seconds, config
        self.document_budget_seconds = document_budget_seconds
        self._pool, self._handed = self._new_pool(), 0
        WORKER_MEMORY.pools.add(self)

    def _new_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        return concurrent.futures.ProcessPoolExecutor(
            max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker, initargs=(self.config,))

    async def parse(self, pdf_path: str, index: int, file_hash: str,
                    then: Callable[[PageParse], T] = as_parsed) -> T:
        """``then(the PageParse)``, always: a page that times out or kills its worker comes back failed,
        with why. ``then`` (picklable) is what the caller does next with the page, done in the worker
        where the page is parsed, or here for a page whose worker failed."""
        try:
            return await self.run(f"page {index + 1}", self.page_budget_seconds, parse_in_worker, pdf_path, index,
                                   file_hash, self.config, then)
        except PageTimeout as exc:
            return then(failed_parse(index + 1, f"page_timeout: {exc}"))
        except WorkerCrashed as exc:
            return then(failed_parse(index + 1, f"worker_crashed: {exc}"))

    async def check(self, pdf_path: str, limits: SecurityLimits) -> DocumentCheck:
        """Open and pre-check a whole document inside its own budget; never raises for a bad file."""
        try:
            return await self.run("the document check", self.document_budget_seconds, check_in_worker,
                                   pdf_path, limits)
        except PageTimeout as exc:
            return DocumentCheck(reason="corrupt_pdf", message=f"the PDF could not be opened in time ({exc})")
        except WorkerCrashed as exc:
            return DocumentCheck(reason="corrupt_pdf", message=f"the PDF crashed the reader ({exc})")

    async def run(self, what: str, budget: float, task: Callable, *args: object):
        """``task(*args)`` in a worker within ``budget`` seconds; PageTimeout or WorkerCrashed otherwise.

        A pool breaks for every task in it when one worker dies, and a task handed over just after a
        worker died (the OOM killer, a neighbour's crash) is failed with it before the pool knows: so a
        task whose pool broke is run once more on a fresh pool, and blamed only when it breaks that one
        too."""
        for _ in range(2):
            try:
                return await self._run_once(self._next_pool(), what, budget, task, *args)
            except BrokenProcessPool:
                continue
        raise WorkerCrashed(f"the worker died while reading {what}")

    def _next_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        """The pool for the next task: a fresh one once this one has been handed its share of tasks.
        The old one finishes what it holds and lets its workers go."""
        self._handed += 1
        if self._handed > self.workers * self.max_tasks_per_child:
            self._pool.shutdown(wait=False)
            self._pool, self._handed = self._new_pool(), 1
        return self._pool

    async def _run_once(self, pool: concurrent.futures.ProcessPoolExecutor, what: str, budget: float,
                        task: Callable, *args: object):
        """One attempt. BrokenProcessPool: the pool was broken already, broke under the task, or was found
        stalled while the task waited. The budget is judged by when the worker finished, not by when a
        busy event loop got round to noticing, so a page's fate does not depend on the load."""
        deadline, finished_at = time.monotonic() + budget, []
        try:
            submitted = pool.submit(counted, task, *args)
        except BrokenProcessPool:
            self._renew(pool)
            raise
        submitted.add_done_callback(lambda _: finished_at.append(time.monotonic()))  # before the loop hears of it
        work, watch, stalled_before = asyncio.wrap_future(submitted), _Watch(pool), False
        while not work.done():
            await asyncio.wait({work}, timeout=min(STALL_CHECK_SECONDS, max(deadline - time.monotonic(), 0)))
            if work.done():
                break
            if time.monotonic() >= deadline:
                self._abandon(pool, watch, work)
                raise PageTimeout(f"{what} took longer than {budget:g}s")
            stalled = watch.stalled()
            if stalled and stalled_before:  # seen twice: not a worker the pool is replacing this instant
                self._abandon(pool, watch, work)
                raise BrokenProcessPool(f"a worker died while {what} waited and the pool did not notice")
            stalled_before = stalled
        try:
            result, counts = work.result()
        except BrokenProcessPool:
            self._abandon(pool, watch, work)
            raise
        add_worker_counts(counts)
        if finished_at[0] > deadline:  # the loop heard late: the page is over budget all the same
            raise PageTimeout(f"{what} took longer than {budget:g}s")
        return result

    def _abandon(self, pool: concurrent.futures.ProcessPoolExecutor, watch: _Watch, work: asyncio.Future) -> None:
        """A stuck MuPDF call cannot be interrupted, and a broken pool answers nothing more: kill the workers
        of the pool the task ran on, free its thread, and start a fresh pool if it was the current one. Only
        that pool: tasks in flight together all see it break, and the first one's replacement (perhaps
        running its retry already) must not be killed by the others'."""
        work.cancel()
        watch.abandon()
        self._renew(pool)

    def _renew(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        if pool is self._pool:
            pool.shutdown(wait=False, cancel_futures=True)
            self._pool, self._handed = self._new_pool(), 0

    def worker_pids(self) -> list[int]:
        """The live workers' process ids (none once the pool is shut down)."""
        processes = getattr(self._pool, "_processes", None) or {}
        return [process.pid for process in list(processes.values()) if process.pid]

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class _Watch:
    """What a pool's own thread watches, kept for a task's wait: the pool's workers and its answer pipe (a
    pool that is shut down forgets both while its thread still waits on them)."""

    def __init__(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        workers = getattr(pool, "_processes", None)
        self.workers: dict = workers if workers is not None else {}
        self.answers = getattr(pool, "_result_queue", None)

    def stalled(self) -> bool:
        """The pool holds the task but cannot do it: it lists a worker that has died, or none at all."""
        workers = list(self.workers.values())
        return not workers or any(worker.exitcode is not None for worker in workers)

    def abandon(self) -> None:
        """Kill the workers, then close this process's end of the answer pipe: the pool's thread, perhaps
        waiting for the rest of a message a killed worker began, reads the end of the pipe and stops."""
        for worker in list(self.workers.values()):
            worker.kill()
        if self.answers is not None:
            self.answers._writer.close()
