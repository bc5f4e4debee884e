"""The service app factory: one FastAPI process hosting a FastStream Kafka broker.

Every service is described by a ``ServiceDefinition`` (its schema, migrations, subscriptions and
optional HTTP routes); ``build_app`` wires the rest the same way for all eight services, so a
service's package holds only its domain core and its handlers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa
import uvicorn
from fastapi import APIRouter, Depends, FastAPI, Request, Response
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from fastapi_offline import FastAPIOffline
from faststream.kafka import KafkaBroker
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from skuflow_contracts.topics import JOB_DELETED, Topic
from skuflow_platform.consumer import EventConsumer, Handler, consumer_group
from skuflow_platform.db import Database, migrate
from skuflow_platform.deadletter import DeadLetters
from skuflow_platform.faults import Health, outage_types, when_reachable
from skuflow_platform.forget import forget_job
from skuflow_platform.lag import Reading, lags
from skuflow_platform.logs import configure_logging, request_log_context
from skuflow_platform.metrics import CONSUMER_LAG, DB_POOL_USAGE, STORAGE_FREE
from skuflow_platform.offsets import OffsetCommits
from skuflow_platform.openapi import restore_examples
from skuflow_platform.outbox import OutboxRelay
from skuflow_platform.settings import PlatformSettings, refuse_unsafe_secrets
from skuflow_platform.storage import LocalStorage
from skuflow_platform.tables import PlatformTables
from skuflow_platform.tracing import HTTP_TELEMETRY, configure_tracing

log = logging.getLogger(__name__)
Subscriptions = list[tuple[Topic, Handler]]


@dataclass(frozen=True)
class Periodic:
    """Work a service does on a clock (watchdogs, scanners); it must be safe with several replicas."""

    name: str
    every_seconds: float
    run: Callable[[], Awaitable[None]]


@dataclass
class ServiceContext:
    """The object graph a service's handlers and routes are built from."""

    name: str
    settings: PlatformSettings
    db: Database
    storage: LocalStorage
    broker: KafkaBroker
    tables: PlatformTables
    relay: OutboxRelay
    health: Health
    offsets: OffsetCommits = field(default_factory=OffsetCommits)  # handled records' offsets awaiting their commit
    on_shutdown: list[Callable[[], None]] = field(default_factory=list)


@dataclass
class ServiceDefinition:
    name: str
    default_port: int
    metadata: sa.MetaData
    tables: PlatformTables
    versions_dir: Path
    subscriptions: Callable[[ServiceContext], Subscriptions]
    routes: Callable[[ServiceContext], APIRouter] | None = None
    periodic: Callable[[ServiceContext], list[Periodic]] | None = None

    @property
    def schema(self) -> str:
        assert self.metadata.schema, "a service's metadata must name its schema"
        return self.metadata.schema


# An event counts as published (the outbox row marked, a dead letter's offset committed) when every in-sync
# replica holds it: with the leader's word alone (aiokafka's default, acks=1) a leader lost before its
# followers copied the event loses it silently. The topics keep two replicas in sync (deploy/k8s/kafka-topics.yaml).
PRODUCER = {"acks": "all"}


def build_context(definition: ServiceDefinition, settings: PlatformSettings) -> ServiceContext:
    db = Database(settings.database_url)
    # FastStream's lines go through our JSON handler; its "Received"/"Processed" per message at DEBUG,
    # written before and after the consumer knows the job: the consumer's "event handled" says it
    broker = KafkaBroker(settings.kafka_bootstrap, client_id=f"skuflow-{definition.name}",
                         logger=logging.getLogger("faststream"), log_level=logging.DEBUG, **PRODUCER)
    health = Health({"database": db.ping, "broker": lambda: broker.ping(timeout=2)})
    relay = OutboxRelay(db, definition.tables.outbox, broker, poll_seconds=settings.outbox_poll_seconds,
                        health=health)
    return ServiceContext(definition.name, settings, db, LocalStorage(settings.storage_root), broker,
                          definition.tables, relay, health)


def build_app(definition: ServiceDefinition, settings: PlatformSettings | None = None) -> FastAPI:
    settings = settings or PlatformSettings()
    refuse_unsafe_secrets(settings)
    configure_logging(definition.name, settings.log_level)
    configure_tracing(definition.name)
    ctx = build_context(definition, settings)
    consumer = EventConsumer(
        service=definition.name, db=ctx.db, tables=ctx.tables, relay=ctx.relay,
        dead_letters=DeadLetters(ctx.broker, definition.name), retries=settings.handler_retries,
        backoff_seconds=settings.retry_backoff_seconds, health=ctx.health, offsets=ctx.offsets,
    )
    subscribed = [*definition.subscriptions(ctx), (JOB_DELETED, forget_job(definition.metadata, definition.tables))]
    consumer.subscribe(ctx.broker, subscribed)
    STORAGE_FREE.set_function(lambda: 1 - ctx.storage.used_ratio())
    DB_POOL_USAGE.set_function(ctx.db.pool_usage)
    lag_clock = _lag_clock(ctx, [Reading(consumer_group(definition.name, topic), topic.name)
                                 for topic, _ in subscribed])
    state = {"ready": False}

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        patience = settings.startup_patience_seconds
        await when_reachable("database", lambda: asyncio.to_thread(
            migrate, settings.database_url, definition.schema, definition.versions_dir), patience)
        await when_reachable("broker", ctx.broker.start, patience)
        ctx.relay.start()
        clocks = [asyncio.create_task(_every(ctx, job), name=job.name)
                  for job in [lag_clock, *(definition.periodic(ctx) if definition.periodic else [])]]
        state["ready"] = True
        log.info("service started", extra={"fields": {"port": settings.http_port}})
        try:
            yield
        finally:
            state["ready"] = False
            for clock in clocks:
                clock.cancel()
            await asyncio.gather(*clocks, return_exceptions=True)
            await ctx.relay.stop()
            await ctx.offsets.close()
            await ctx.broker.stop()
            await ctx.db.close()
            for cleanup in ctx.on_shutdown:
                cleanup()
            log.info("service stopped")

    # the documentation pages load Swagger UI and ReDoc from this service, not a CDN: they work offline
    app = FastAPIOffline(title=f"skuflow {definition.name}", lifespan=lifespan,
                         dependencies=[Depends(request_log_context)], telemetry=HTTP_TELEMETRY)
    app.state.ctx = ctx
    origins = [o.strip() for o in settings.cors_origins.split(",") if o.strip()]
    if origins:
        app.add_middleware(CORSMiddleware, allow_origins=origins, allow_methods=["*"],
                           allow_headers=["Authorization", "Content-Type"])

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        return {"status": "ok", "service": definition.name}

    @app.get("/readyz", include_in_schema=False)
    async def readyz(response: Response) -> dict[str, object]:
        """Ready when started, Postgres and Kafka answer, and no consumer is waiting out an outage."""
        checks = await ctx.health.check() if state["ready"] else {}
        waiting = sorted(ctx.health.waiting)
        ready = bool(checks) and all(checks.values()) and not waiting
        response.status_code = 200 if ready else 503
        return {"ready": ready, "started": state["ready"], **checks, "waiting": waiting}

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)

    if definition.routes:
        app.include_router(definition.routes(ctx))
        restore_examples(app)
        for kind in outage_types():
            app.add_exception_handler(kind, unavailable)
    return app


RETRY_AFTER_SECONDS = 5


def _lag_clock(ctx: ServiceContext, readings: list[Reading]) -> Periodic:
    """The service's own consumer groups' lag, as ``skuflow_consumer_lag``."""
    async def measure() -> None:
        for reading, lag in (await lags(ctx.settings.kafka_bootstrap, readings)).items():
            CONSUMER_LAG.labels(reading.group, reading.topic).set(lag)

    return Periodic("consumer lag", ctx.settings.metrics_interval_seconds, measure)


async def _every(ctx: ServiceContext, job: Periodic) -> None:
    while True:
        await asyncio.sleep(job.every_seconds)
        try:
            await job.run()
        except Exception:
            log.warning("periodic job failed; waiting for the infrastructure", exc_info=True,
                        extra={"fields": {"job": job.name}})
            await ctx.health.wait_until_healthy(job.name)


async def unavailable(_: Request, exc: Exception) -> Response:
    """While Postgres or Kafka is down a request is refused with 503 and a hint, not a 500."""
    log.warning("request refused: infrastructure unavailable", extra={"fields": {"error": type(exc).__name__}})
    return JSONResponse({"detail": "service temporarily unavailable; please retry"}, status_code=503,
                        headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def serve(definition: ServiceDefinition) -> None:
    """Entry point of ``python -m skuflow_<service>``."""
    settings = PlatformSettings()
    settings.http_port = settings.http_port or definition.default_port
    app = build_app(definition, settings)
    uvicorn.run(app, host=settings.http_host, port=settings.http_port, log_config=None,
                timeout_graceful_shutdown=10)
