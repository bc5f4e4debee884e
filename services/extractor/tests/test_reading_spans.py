"""The reader's stages are spans under the caller's: an operator sees where a slow page spent its time."""

from extractor_pages import HASH, HEADER, PROFILE, body_rows, classification, page, table
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from skuflow_extractor.reading.pipeline import read_page
from skuflow_platform.tracing import stage
from tests.otlp_collector import installed


def test_the_reading_stages_are_child_spans_of_the_pages_reading():
    spans = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(spans))
    with installed(provider), stage("read page", page=3):
        read = read_page(page(*table(0, 100, [HEADER, *body_rows(1, 3)])), classification("A"), HASH, PROFILE)
    by_name = {span.name: span for span in spans.get_finished_spans()}
    reading = by_name.pop("read page")
    assert list(by_name) == ["rules", "candidates", "decisions", "assembly"]
    assert all(span.parent.span_id == reading.context.span_id for span in by_name.values())
    assert by_name["assembly"].attributes["skuflow.skus"] == len(read.skus) > 0
    assert by_name["decisions"].attributes["skuflow.reader_version"] == read.reader_version
