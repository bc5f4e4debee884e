"""What the parser's worker processes count reaches the service's /metrics, and so does their memory."""

import asyncio

from pdf_samples import born_digital
from prometheus_client import REGISTRY, generate_latest

from skuflow_parser.pages import ParserConfig
from skuflow_parser.workers import PagePool

HASH = "12345678" * 8


def used(backend: str) -> float:
    return REGISTRY.get_sample_value("pipeline_parser_used_total", {"backend": backend}) or 0.0


def test_a_count_made_in_a_worker_process_reaches_the_services_scrape(tmp_path):
    pdf = tmp_path / "c.pdf"
    born_digital().save(pdf)
    pool = PagePool(workers=1, max_tasks_per_child=5, page_budget_seconds=60, config=ParserConfig(ocr_enabled=False))
    try:
        parsed = asyncio.run(pool.parse(str(pdf), 0, HASH)).page
        backend = parsed.parser_backend
        before = used(backend) - 1  # the first page's count came back with it
        asyncio.run(pool.parse(str(pdf), 0, HASH))
        assert used(backend) == before + 2  # each page once: a worker's running total is not sent twice
        scraped = generate_latest().decode()
        assert f'pipeline_parser_used_total{{backend="{backend}"}}' in scraped
        rss = REGISTRY.get_sample_value("skuflow_parser_worker_rss_bytes", {"worker": "0"})
        assert rss is not None and rss > 10_000_000  # a live worker with MuPDF loaded
    finally:
        pool.close()
    assert REGISTRY.get_sample_value("skuflow_parser_worker_rss_bytes", {"worker": "0"}) is None
