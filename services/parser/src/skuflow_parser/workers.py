"""Page parsing in a worker process (C9): MuPDF and OCR run off the event loop, a page that
exceeds its time budget is abandoned (its worker killed) instead of blocking the consumer, and
workers are recycled after ``max_tasks_per_child`` pages so leaks cannot accumulate.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
from collections import OrderedDict

import pymupdf

from skuflow_parser.backends import ocr_backend
from skuflow_parser.backends.pymupdf_backend import ImageCache, open_document
from skuflow_parser.pages import PageParse, ParserConfig, parse_page

OPEN_DOCUMENTS = 2  # per worker: consecutive pages of one job reuse the opened document
_documents: OrderedDict[str, tuple[pymupdf.Document, ImageCache]] = OrderedDict()


class PageTimeout(Exception):
    """The page took longer than its budget."""


def _start_worker(config: ParserConfig) -> None:
    if config.ocr_enabled:
        ocr_backend.warm_up(config.ocr)


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


def parse_in_worker(pdf_path: str, index: int, file_hash: str, config: ParserConfig) -> PageParse:
    doc, cache = _document(pdf_path)
    return parse_page(doc, index, file_hash, cache, config)


class PagePool:
    def __init__(self, *, workers: int, max_tasks_per_child: int, page_budget_seconds: float,
                 config: ParserConfig) -> None:
        self.workers, self.max_tasks_per_child = workers, max_tasks_per_child
        self.page_budget_seconds, self.config = page_budget_seconds, config
        self._pool = self._new_pool()

    def _new_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        return concurrent.futures.ProcessPoolExecutor(
            max_workers=self.workers, max_tasks_per_child=self.max_tasks_per_child,
            mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker,
            initargs=(self.config,))

    async def parse(self, pdf_path: str, index: int, file_hash: str) -> PageParse:
        loop = asyncio.get_running_loop()
        work = loop.run_in_executor(self._pool, parse_in_worker, pdf_path, index, file_hash, self.config)
        try:
            return await asyncio.wait_for(work, timeout=self.page_budget_seconds)
        except TimeoutError:
            self._replace_pool()
            raise PageTimeout(f"page {index + 1} took longer than {self.page_budget_seconds:g}s") from None

    def _replace_pool(self) -> None:
        """A stuck MuPDF call cannot be interrupted: kill the workers and start fresh ones."""
        for process in list(getattr(self._pool, "_processes", {}).values()):
            process.kill()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._new_pool()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
