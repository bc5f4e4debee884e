"""A job's trace across services as a collector receives it (real OTel SDK, real OTLP/HTTP exporter, real
Postgres): the gateway's upload span starts it, each consumer continues it from the traceparent its event
carries through the outbox, and GET /jobs/{id} names it. The consumers' handlers are stand-ins: what is
tested is the path an event's context travels, which is the same for every service."""

import asyncio
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from skuflow_contracts.events import PageParsed
from skuflow_contracts.topics import JOB_CREATED, PAGE_PARSED
from skuflow_gateway.service import definition as gateway
from skuflow_platform.auth import mint_token
from skuflow_platform.consumer import EventConsumer
from skuflow_platform.db import Database, migrate
from skuflow_platform.faults import Health
from skuflow_platform.outbox import OutboxRelay
from skuflow_platform.runtime import build_app
from skuflow_platform.settings import PlatformSettings
from skuflow_platform.tables import platform_tables
from skuflow_platform.tracing import stage, tracer_provider
from tests.api_examples import example_checks
from tests.otlp_collector import FakeCollector, installed

SECRET = "gateway-traces-test-secret-long-enough-for-hs256"
PDF = b"%PDF-1.7\n" + b"1 0 obj << >> endobj\n" * 50
CONSUMERS = "platform_test"  # the schema the stand-in consumers keep their inbox and outbox in
TABLES = platform_tables(sa.MetaData(schema=CONSUMERS))
TRACE_UI = "https://jaeger.example.com/trace/{trace_id}"
ROOT = Path(__file__).parents[2]


@pytest.fixture
def collector(monkeypatch):
    for name in ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_TRACES_SAMPLER", "OTEL_TRACES_SAMPLER_ARG"):
        monkeypatch.delenv(name, raising=False)
    with FakeCollector().running() as running:
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", running.url)
        yield running


async def upload(database_url: str, storage: Path) -> tuple[str, dict, bytes]:
    """A catalog uploaded to the gateway: its job id, GET /jobs/{id}, and the job.created as relayed."""
    await asyncio.to_thread(migrate, database_url, gateway.schema, gateway.versions_dir)
    app = build_app(gateway, PlatformSettings(database_url=database_url, storage_root=storage, jwt_secret=SECRET))
    owner = {"Authorization": f"Bearer {mint_token(user_id='u', merchant_id='m-traces', secret=SECRET)}"}
    ctx = app.state.ctx
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw",
                                     event_hooks=example_checks(app.openapi())) as client:
            created = await client.post("/api/v1/jobs", files={"file": ("c.pdf", PDF, "application/pdf")},
                                        headers=owner)
            job_id = created.json()["job_id"]
            job = (await client.get(f"/api/v1/jobs/{job_id}", headers=owner)).json()
            for probe in ("/healthz", "/metrics"):
                assert (await client.get(probe)).status_code == 200
        async with ctx.db.transaction() as conn:
            body = (await conn.execute(sa.select(ctx.tables.outbox.c.body).where(
                ctx.tables.outbox.c.topic == JOB_CREATED.name, ctx.tables.outbox.c.message_key == job_id))).scalar_one()
    finally:
        await ctx.db.close()
    return job_id, job, body


async def consume(db: Database, service: str, topic: str, body: bytes, work: str) -> bytes:
    """``body`` handled by ``service``'s consumer, whose handler does ``work`` and emits page 2's page.parsed;
    returns that event as its outbox row holds it."""
    health = Health({"database": db.ping})
    consumer = EventConsumer(service=service, db=db, tables=TABLES, health=health, retries=0, backoff_seconds=0,
                             relay=OutboxRelay(db, TABLES.outbox, None, poll_seconds=60, health=health),
                             dead_letters=None)
    emitted = []

    async def handler(envelope, uow) -> None:
        with stage(work, job_id=envelope.job_id):
            emitted.append(uow.emit(PageParsed(
                page=2, total_pages=3, file_hash="cd" * 32, route="AUTO", config_version="v1",
                ir_uri="local://ir.json", parser_backend="pymupdf")))

    assert await consumer.process(topic, body, None, handler) == "handled"
    async with db.transaction() as conn:
        return (await conn.execute(sa.select(TABLES.outbox.c.body).where(
            TABLES.outbox.c.event_id == emitted[0].event_id))).scalar_one()


async def test_a_jobs_trace_runs_from_the_upload_through_each_hop_and_the_job_names_it(
        database_url, tmp_path, collector, monkeypatch):
    monkeypatch.setenv("SKUFLOW_TRACE_UI_URL", TRACE_UI)
    with installed(tracer_provider("gateway")):
        job_id, job, created = await upload(database_url, tmp_path)
    await asyncio.to_thread(migrate, database_url, CONSUMERS, ROOT / "libs/platform/tests/migrations")
    db = Database(database_url)
    try:
        with installed(tracer_provider("evaluator")):
            parsed = await consume(db, "evaluator", JOB_CREATED.name, created, "route")
        with installed(tracer_provider("parser")):
            await consume(db, "parser", PAGE_PARSED.name, parsed, "parse page")
    finally:
        await db.close()

    request, upload_span = collector.named("POST /api/v1/jobs"), collector.named("upload catalog")
    first, route = collector.named(f"consume {JOB_CREATED.name}"), collector.named("route")
    second, parse = collector.named(f"consume {PAGE_PARSED.name}"), collector.named("parse page")
    assert [span.service for span in (request, upload_span, first, route, second, parse)] == [
        "skuflow-gateway", "skuflow-gateway", "skuflow-evaluator", "skuflow-evaluator", "skuflow-parser",
        "skuflow-parser"]
    assert {span.name for span in collector.spans if span.trace_id != request.trace_id} == {
        "GET /api/v1/jobs/{job_id}"}  # reading the job is a trace of its own; probes and scrapes are none
    assert (request.parent_span_id, upload_span.parent_span_id) == ("", request.span_id)
    assert (first.parent_span_id, route.parent_span_id) == (upload_span.span_id, first.span_id)
    assert (second.parent_span_id, parse.parent_span_id) == (route.span_id, second.span_id)
    assert upload_span.attributes["skuflow.job_id"] == job_id
    assert {key: first.attributes[key] for key in ("skuflow.job_id", "skuflow.merchant_id",
                                                   "messaging.destination.name", "skuflow.outcome")} == {
        "skuflow.job_id": job_id, "skuflow.merchant_id": "m-traces", "messaging.destination.name": JOB_CREATED.name,
        "skuflow.outcome": "handled"}
    assert "skuflow.page" not in first.attributes and second.attributes["skuflow.page"] == 2
    assert first.attributes["skuflow.event_id"] != second.attributes["skuflow.event_id"]
    assert (job["trace_id"], job["trace_url"]) == (upload_span.trace_id, TRACE_UI.format(trace_id=upload_span.trace_id))


async def test_a_job_whose_trace_was_not_sampled_links_to_none(database_url, tmp_path, collector, monkeypatch):
    monkeypatch.setenv("SKUFLOW_TRACE_UI_URL", TRACE_UI)
    monkeypatch.setenv("OTEL_TRACES_SAMPLER", "parentbased_traceidratio")
    monkeypatch.setenv("OTEL_TRACES_SAMPLER_ARG", "0")
    with installed(tracer_provider("gateway")):
        _, job, _ = await upload(database_url, tmp_path)
    assert (job["trace_id"], job["trace_url"]) == (None, None)
    assert collector.spans == []
