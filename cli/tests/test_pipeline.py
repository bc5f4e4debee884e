"""The in-process pipeline parses each page in a worker process while it reads the page before."""

import asyncio
import os
import signal
import threading
import time

from skuflow_cli import pipeline
from skuflow_cli.catalog import generate_catalog
from skuflow_cli.pipeline import page_pool, read_document
from skuflow_platform.storage import LocalStorage


def test_a_parser_worker_killed_mid_document_costs_no_page(tmp_path):
    pdf = tmp_path / "catalog.pdf"
    truth = generate_catalog(pdf, pages=12, seed=4)
    storage = LocalStorage(tmp_path / "scratch")
    killed = []

    def kill_once_pages_are_stored():  # as the OOM killer would, while the document is being read
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not list(storage.root.glob("jobs/*/pages/0004/ir.json")):
            time.sleep(0.005)
        killed.extend(page_pool().worker_pids())
        for pid in killed:
            os.kill(pid, signal.SIGKILL)

    page_pool().worker_pids()  # the pool of this process, started before the watcher looks for it
    watcher = threading.Thread(target=kill_once_pages_are_stored)
    watcher.start()
    document = asyncio.run(read_document(pdf.read_bytes(), storage))
    watcher.join()
    assert killed, "the worker was not found while the document was read"
    assert [page.fallback_reason for page in document.pages] == [None] * 12
    assert [len(page.skus) for page in document.pages] == [len(page.skus) for page in truth], [
        (page.page, page.status, page.review_reasons) for page in document.pages if not page.skus]  # why, if not
    assert page_pool().worker_pids() and set(page_pool().worker_pids()).isdisjoint(killed)


def test_a_page_that_cannot_be_read_fails_alone_and_the_document_reads_on(tmp_path, monkeypatch):
    """As the services dead-letter a page (page.failed, PARTIAL_FAILED), not the whole document."""
    pdf = tmp_path / "catalog.pdf"
    truth = generate_catalog(pdf, pages=3, seed=4)
    read_page = pipeline.read_page

    def broken_on_page_two(page, *args, **kwargs):
        if page.page == 2:
            raise IndexError("list index out of range")
        return read_page(page, *args, **kwargs)

    monkeypatch.setattr(pipeline, "read_page", broken_on_page_two)
    document = asyncio.run(read_document(pdf.read_bytes(), LocalStorage(tmp_path / "scratch")))
    assert [page.status for page in document.pages] == ["AI_COMPLETED", "DEAD_LETTER", "AI_COMPLETED"]
    assert document.pages[1].needs_review and not document.pages[1].skus
    assert [len(page.skus) for page in document.pages] == [len(truth[0].skus), 0, len(truth[2].skus)]
    assert document.job.status == "PARTIAL_FAILED"
