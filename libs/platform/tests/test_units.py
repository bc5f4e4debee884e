"""Runtime pieces that need no Kafka or Postgres: storage, auth, logs, and the DLQ path in FastStream."""

import json
import logging

import pytest
from faststream.kafka import KafkaBroker, TestKafkaBroker

from skuflow_contracts.topics import JOB_CREATED, JOB_FAILED, JOB_ROUTED, PAGE_BOUND, PAGE_PARSED, PROFILE_PUBLISHED
from skuflow_platform.auth import AuthError, bearer_principal, mint_token, verify_token
from skuflow_platform.consumer import EventConsumer, consumer_group
from skuflow_platform.deadletter import DeadLetters
from skuflow_platform.faults import Backoff, Health
from skuflow_platform.logs import JsonFormatter, RepeatLimiter, log_context
from skuflow_platform.settings import (
    DEVELOPMENT_JWT_SECRET,
    InsecureConfiguration,
    PlatformSettings,
    refuse_unsafe_secrets,
)
from skuflow_platform.storage import LocalStorage, StorageError

SECRET = "a-test-secret-that-is-long-enough-for-hs256"


def test_storage_round_trips_and_refuses_paths_outside_its_root(tmp_path):
    storage = LocalStorage(tmp_path)
    uri = storage.put("jobs/1/pages/0001/ir.json", b"{}")
    assert uri == "local://jobs/1/pages/0001/ir.json"
    assert storage.get(uri) == b"{}"
    assert storage.path(uri) == tmp_path.resolve() / "jobs/1/pages/0001/ir.json"
    for bad in ("local://../etc/passwd", "local:///etc/passwd", "file:///etc/passwd", "local://a/../../b"):
        with pytest.raises(StorageError):
            storage.get(bad)
    with pytest.raises(StorageError, match="nothing stored"):
        storage.get("local://jobs/2/source.pdf")


def test_a_token_names_its_merchant():
    token = mint_token(user_id="u1", merchant_id="m1", secret=SECRET)
    principal = bearer_principal(f"Bearer {token}", SECRET)
    assert (principal.user_id, principal.merchant_id, principal.roles) == ("u1", "m1", ("merchant",))


@pytest.mark.parametrize("header, message", [
    (None, "missing Authorization"),
    ("Basic abc", "Bearer <token>"),
    ("Bearer not.a.jwt", "invalid token"),
])
def test_bad_authorization_headers_are_refused(header, message):
    with pytest.raises(AuthError, match=message):
        bearer_principal(header, SECRET)


def test_forged_and_expired_tokens_are_refused():
    forged = mint_token(user_id="u1", merchant_id="m1", secret="another-secret-that-is-also-long-enough")
    with pytest.raises(AuthError, match="invalid token"):
        verify_token(forged, SECRET)
    expired = mint_token(user_id="u1", merchant_id="m1", secret=SECRET, ttl_seconds=-10)
    with pytest.raises(AuthError, match="expired"):
        verify_token(expired, SECRET)


def test_log_lines_are_json_with_the_message_context():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "page done", None, None)
    with log_context(job_id="j1", page=3, event_id=None):
        line = json.loads(JsonFormatter("parser").format(record))
    assert line["msg"] == "page done" and line["service"] == "parser"
    assert (line["job_id"], line["page"]) == ("j1", 3) and "event_id" not in line


def test_a_page_stream_topic_has_its_own_group_and_the_quiet_ones_share_the_services_group():
    assert consumer_group("gateway", PAGE_PARSED) == "skuflow-gateway.page.parsed.v1"
    assert consumer_group("gateway", PAGE_BOUND) == "skuflow-gateway.page.bound.v1"
    assert consumer_group("gateway", JOB_ROUTED) == consumer_group("gateway", JOB_FAILED) == "skuflow-gateway.events"
    assert consumer_group("output", JOB_ROUTED) == "skuflow-output.events"
    # an event waits for the notice of its profile version: the notice must not queue behind it
    assert consumer_group("evaluator", PROFILE_PUBLISHED) == "skuflow-evaluator.profiles"
    assert consumer_group("evaluator", PROFILE_PUBLISHED) != consumer_group("evaluator", JOB_CREATED)


def _unit_consumer(broker: KafkaBroker) -> EventConsumer:
    return EventConsumer(service="unit", db=None, tables=None, relay=None, dead_letters=DeadLetters(broker, "unit"),
                         retries=0, backoff_seconds=0, health=Health({}))


async def _ignore(envelope, uow) -> None:
    raise AssertionError("a malformed message reached a handler")


def _keeper(kept: list[bytes]):
    async def keep(body: bytes) -> None:
        kept.append(body)
    return keep


def test_a_topic_subscribed_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        _unit_consumer(KafkaBroker()).subscribe(KafkaBroker(), [(JOB_ROUTED, _ignore), (JOB_ROUTED, _ignore)])


async def test_one_consumer_of_several_topics_keeps_each_records_topic():
    """The quiet topics share one consumer: a record is decoded, and dead-lettered, as its own topic's."""
    broker = KafkaBroker()
    _unit_consumer(broker).subscribe(broker, [(JOB_ROUTED, _ignore), (JOB_FAILED, _ignore)])
    dead: dict[str, list[bytes]] = {JOB_ROUTED.dlq: [], JOB_FAILED.dlq: []}
    for dlq, kept in dead.items():
        broker.subscriber(dlq)(_keeper(kept))

    async with TestKafkaBroker(broker) as test_broker:
        await test_broker.publish(b"not a routing", topic=JOB_ROUTED.name, key=b"job-x")
        await test_broker.publish(b"not a failure", topic=JOB_FAILED.name, key=b"job-x")
    assert dead == {JOB_ROUTED.dlq: [b"not a routing"], JOB_FAILED.dlq: [b"not a failure"]}


async def test_a_malformed_message_reaches_the_dlq_through_faststream():
    """FastStream's in-memory TestKafkaBroker: the subscriber wiring, no broker and no database."""
    broker = KafkaBroker()
    handled = []

    async def handler(envelope, uow):
        handled.append(envelope)

    _unit_consumer(broker).subscribe(broker, [(PAGE_PARSED, handler)])
    dead = []

    @broker.subscriber(PAGE_PARSED.dlq)
    async def capture(body: bytes) -> None:
        dead.append(body)

    async with TestKafkaBroker(broker) as test_broker:
        await test_broker.publish(b"definitely not json", topic=PAGE_PARSED.name, key=b"job-x")
    assert dead == [b"definitely not json"] and handled == []


def test_backoff_doubles_up_to_its_cap():
    backoff = Backoff(first=0.5, cap=4)
    assert [backoff.delay(n) for n in range(1, 6)] == [0.5, 1, 2, 4, 4]


def test_repeated_errors_are_logged_once_per_window_with_a_count():
    now = [0.0]
    limiter = RepeatLimiter(window_seconds=60, clock=lambda: now[0])

    def record(msg: str, level: int = logging.ERROR) -> logging.LogRecord:
        return logging.LogRecord("relay", level, __file__, 1, msg, None, None)

    assert limiter.filter(record("broker unreachable"))
    assert not any(limiter.filter(record("broker unreachable")) for _ in range(500))
    assert limiter.filter(record("another error"))
    assert limiter.filter(record("progress", logging.INFO)) and limiter.filter(record("progress", logging.INFO))
    now[0] = 61
    passed = record("broker unreachable")
    assert limiter.filter(passed) and passed.fields == {"repeated": 500}


async def test_health_reports_each_probe_and_a_probe_that_raises_is_down():
    async def up() -> bool:
        return True

    async def broken() -> bool:
        raise OSError("connection refused")

    health = Health({"database": up, "broker": broken})
    assert await health.check() == {"database": True, "broker": False}
    assert not await health.healthy()


@pytest.mark.parametrize("secret", [DEVELOPMENT_JWT_SECRET, "REPLACE_ME", "short-but-random-91f3",
                                    "dev-only-not-a-secret-but-long-enough-to-pass"])
def test_a_deployment_refuses_to_start_with_a_known_or_weak_jwt_secret(secret):
    with pytest.raises(InsecureConfiguration, match="SKUFLOW_JWT_SECRET"):
        refuse_unsafe_secrets(PlatformSettings(env="production", jwt_secret=secret))
    refuse_unsafe_secrets(PlatformSettings(env="development", jwt_secret=secret))  # development may


def test_a_deployment_starts_with_a_long_random_secret():
    refuse_unsafe_secrets(PlatformSettings(env="production", jwt_secret="9f" * 32))


def test_a_service_publishes_with_every_in_sync_replica_acknowledging(tmp_path):
    """The outbox marks a row published on the broker's acknowledgement; with the leader's alone
    (aiokafka's default, acks=1) a leader lost before its followers copied the event loses it."""
    import sqlalchemy as sa

    from skuflow_platform.runtime import ServiceDefinition, build_context
    from skuflow_platform.tables import platform_tables

    metadata = sa.MetaData(schema="probe")
    definition = ServiceDefinition("probe", 8999, metadata, platform_tables(metadata), tmp_path, lambda ctx: [])
    context = build_context(definition, PlatformSettings(storage_root=tmp_path))
    # FastStream keeps the options it builds its aiokafka producer with until it connects
    assert context.broker._connection_kwargs["acks"] == "all"
