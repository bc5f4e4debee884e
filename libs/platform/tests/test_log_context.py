"""A service's log lines while it handles an event or a request for a job: JSON, each carrying the job
(and the page where known) and the trace and span it was written in, set by the runtime around the
handler, not by the handler. The event goes through the service's own FastStream broker (in memory) to
a handler on the real Postgres."""

import asyncio
import io
import json
import logging
import uuid
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from fastapi import APIRouter
from faststream.kafka import TestKafkaBroker
from opentelemetry.sdk.trace import TracerProvider

from skuflow_contracts.codec import encode, envelope_for
from skuflow_contracts.events import PageParsed
from skuflow_contracts.topics import PAGE_PARSED
from skuflow_platform.db import migrate
from skuflow_platform.logs import JsonFormatter
from skuflow_platform.runtime import ServiceDefinition, build_app
from skuflow_platform.settings import PlatformSettings
from skuflow_platform.tables import platform_tables

SCHEMA = "platform_test"
MIGRATIONS = Path(__file__).parent / "migrations"
METADATA = sa.MetaData(schema=SCHEMA)
TABLES = platform_tables(METADATA)
log = logging.getLogger("skuflow_log_test")
PARENT_TRACE, PARENT_SPAN = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"


async def on_page_parsed(envelope, uow) -> None:
    log.info("page read")


def routes(ctx) -> APIRouter:
    router = APIRouter()

    @router.get("/api/v1/jobs/{job_id}/pages/{page}")
    async def page(job_id: str, page: int) -> dict:
        log.info("page shown")
        return {}

    return router


DEFINITION = ServiceDefinition(name="log-test", default_port=0, metadata=METADATA, tables=TABLES,
                               versions_dir=MIGRATIONS, subscriptions=lambda ctx: [(PAGE_PARSED, on_page_parsed)],
                               routes=routes)


@pytest.fixture
async def service(database_url, tmp_path):
    """The app and what its log handler writes (to stdout in a service)."""
    await asyncio.to_thread(migrate, database_url, SCHEMA, MIGRATIONS)
    root = logging.getLogger()
    kept = root.handlers[:], root.level
    app = build_app(DEFINITION, PlatformSettings(database_url=database_url, storage_root=tmp_path))
    [handler] = root.handlers
    written = io.StringIO()
    handler.setStream(written)
    yield app, written
    await app.state.ctx.offsets.close()  # the handled events' commits, not left to write into the next test's lines
    root.handlers[:] = kept[0]
    root.setLevel(kept[1])
    await app.state.ctx.db.close()


def lines(written: io.StringIO) -> list[dict]:
    """Every line written since the last call, as JSON (a line that is not JSON fails the test here)."""
    text = written.getvalue()
    written.seek(0)
    written.truncate()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


async def test_every_line_written_while_an_event_is_handled_is_json_with_its_job_and_page(service):
    app, written = service
    job_id = f"job-{uuid.uuid4().hex[:8]}"
    payload = PageParsed(page=2, total_pages=3, file_hash="cd" * 32, route="AUTO", config_version="v1",
                         ir_uri="local://ir.json", parser_backend="pymupdf")
    _, envelope = envelope_for(payload, job_id=job_id, merchant_id="m1", producer="test")
    async with TestKafkaBroker(app.state.ctx.broker) as broker:
        lines(written)  # what starting the broker wrote
        await broker.publish(encode(envelope), topic=PAGE_PARSED.name, key=job_id.encode())
        handling = lines(written)
    assert handling and all(line["job_id"] == job_id and line["page"] == 2 for line in handling), handling
    assert {"page read", "event handled"} <= {line["msg"] for line in handling}


async def test_the_lines_of_an_events_handling_carry_its_consume_spans_trace_and_span(service):
    app, written = service
    job_id = f"job-{uuid.uuid4().hex[:8]}"
    payload = PageParsed(page=1, total_pages=1, file_hash="ef" * 32, route="AUTO", config_version="v1",
                         ir_uri="local://ir.json", parser_backend="pymupdf")
    _, envelope = envelope_for(payload, job_id=job_id, merchant_id="m1", producer="test",
                               traceparent=f"00-{PARENT_TRACE}-{PARENT_SPAN}-01")
    async with TestKafkaBroker(app.state.ctx.broker) as broker:
        lines(written)
        await broker.publish(encode(envelope), topic=PAGE_PARSED.name, key=job_id.encode())
        handling = lines(written)
    assert {"page read", "event handled"} <= {line["msg"] for line in handling}
    assert {line["trace_id"] for line in handling} == {PARENT_TRACE}  # the producer's trace, continued
    [span_id] = {line["span_id"] for line in handling}  # the handler's line and the consumer's: one span
    assert span_id != PARENT_SPAN and len(span_id) == 16


def test_a_line_carries_the_trace_and_span_current_when_it_is_written_and_none_outside_a_span():
    formatter = JsonFormatter("log-test")

    def written() -> dict:
        return json.loads(formatter.format(log.makeRecord(log.name, logging.INFO, __file__, 1, "m", (), None)))

    assert "trace_id" not in written() and "span_id" not in written()
    with TracerProvider().get_tracer("test").start_as_current_span("stage") as span:
        inside = written()
    ids = span.get_span_context()
    assert (inside["trace_id"], inside["span_id"]) == (f"{ids.trace_id:032x}", f"{ids.span_id:016x}")


async def test_a_line_written_while_a_request_for_a_job_is_answered_carries_the_job_page_and_trace(service):
    app, written = service
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://svc") as client:
        assert (await client.get("/api/v1/jobs/job-7/pages/3")).status_code == 200
    [shown] = [line for line in lines(written) if line["msg"] == "page shown"]
    assert (shown["job_id"], shown["page"]) == ("job-7", 3)
    assert len(shown["trace_id"]) == 32 and len(shown["span_id"]) == 16  # the request's span


def test_faststreams_own_lines_are_json_lines_of_the_service(service):
    _, written = service
    logging.getLogger("faststream").warning("Consumer assigned to partitions")  # as FastStream logs it
    [line] = lines(written)
    assert (line["service"], line["msg"]) == ("log-test", "Consumer assigned to partitions")
