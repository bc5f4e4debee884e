"""The binder's page latency: from the page's page.parsed to its page.bound, first readings only."""

from datetime import UTC, datetime, timedelta

from prometheus_client import REGISTRY

from skuflow_binder.metrics import count_bound
from skuflow_contracts.codec import envelope_for
from skuflow_contracts.events import PageBound
from skuflow_contracts.results import PageResult, Validation


def bound(parsed_seconds_ago: float, reading: int = 0):
    result = PageResult(page=1, status="AI_DONE", page_type="A", layout="L1", needs_review=False,
                        parser_backend="pymupdf", extraction_method="table_rule",
                        validation=Validation(triggered_rules=["sku_without_image:s1,s2"]))
    event = PageBound(page=1, total_pages=1, file_hash="a" * 64, route="AUTO", config_version="v1", ir_uri="ir",
                      result=result, reading=reading,
                      parsed_at=datetime.now(UTC) - timedelta(seconds=parsed_seconds_ago))
    return envelope_for(event, job_id="j", merchant_id="m", producer="binder", traceparent=None)[1]


def sample(name: str, labels: dict | None = None) -> float:
    return REGISTRY.get_sample_value(name, labels or {}) or 0.0


def test_a_first_reading_is_timed_from_its_parse_and_a_re_read_is_not():
    fast = {"le": "0.05"}
    before = (sample("skuflow_page_latency_seconds_count"), sample("skuflow_page_latency_seconds_bucket", fast),
              sample("skuflow_pages_processed_total", {"stage": "binder"}),
              sample("consistency_rule_triggered_total", {"rule_name": "sku_without_image"}))

    count_bound(bound(parsed_seconds_ago=3), seconds=0.01)
    count_bound(bound(parsed_seconds_ago=3600, reading=1), seconds=0.01)

    assert sample("skuflow_page_latency_seconds_count") == before[0] + 1
    assert sample("skuflow_page_latency_seconds_bucket", fast) == before[1]  # 3 s, not under 0.05 s
    assert sample("skuflow_page_latency_seconds_bucket", {"le": "5.0"}) >= 1
    assert sample("skuflow_pages_processed_total", {"stage": "binder"}) == before[2] + 2
    assert sample("consistency_rule_triggered_total", {"rule_name": "sku_without_image"}) == before[3] + 2
