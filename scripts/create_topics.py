"""Create every skuflow Kafka topic (and its DLQ twin) on a broker; skip the ones that exist.

The topic list comes from ``skuflow_contracts.topics.all_topic_names()``, the only place topic
names are spelled out. Replication factor is 1 (the local single-node broker).

    .venv/bin/python scripts/create_topics.py [--bootstrap 127.0.0.1:9092] [--timeout 60]
    .venv/bin/python scripts/create_topics.py --ping   # exit 0 iff the broker answers metadata

Exits non-zero with a message if the broker cannot be reached, a topic cannot be created, or
the topics do not all show up (with a leader for every partition) within the timeout.
Called by ``scripts/infra start``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import KafkaError

try:
    from skuflow_contracts.topics import all_topic_names
except ImportError:  # contracts package not installed in this venv yet: use the source tree
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "libs" / "contracts" / "src"))
    from skuflow_contracts.topics import all_topic_names

TOPIC_ALREADY_EXISTS = 36
REPLICATION_FACTOR = 1


def log(msg: str) -> None:
    print(f"infra: {msg}", flush=True)


async def _connect(bootstrap: str, deadline: float) -> AIOKafkaAdminClient:
    """Start an admin client, retrying until the broker answers or the deadline passes."""
    last: Exception | None = None
    while True:
        admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10_000)
        try:
            await admin.start()
            await admin.describe_cluster()
            return admin
        except (KafkaError, OSError) as exc:
            last = exc
            await admin.close()
        if time.monotonic() >= deadline:
            raise SystemExit(f"infra: ERROR: no Kafka broker answering on {bootstrap}: {last!r}")
        await asyncio.sleep(1)


async def _missing(admin: AIOKafkaAdminClient, wanted: dict[str, int]) -> list[str]:
    """Topics not yet in metadata with every partition led (or with too few partitions)."""
    described = await admin.describe_topics(list(wanted))
    ready = set()
    for t in described:
        parts = t.get("partitions") or []
        if t.get("error_code", 0) == 0 and len(parts) >= 1 and all(p["leader"] >= 0 for p in parts):
            ready.add(t["topic"])
    return sorted(set(wanted) - ready)


async def _warm_group_coordinator(admin: AIOKafkaAdminClient, deadline: float) -> None:
    """Make the broker create __consumer_offsets now, not when the first service joins a group.

    The first FindCoordinator request triggers its creation and fails with
    GroupCoordinatorNotAvailable until it is there; consumers retry, but log that error.
    """
    while True:
        try:
            await admin.find_coordinator("skuflow-infra-warmup")
            return
        except KafkaError as exc:
            if time.monotonic() >= deadline:
                raise SystemExit(f"infra: ERROR: group coordinator not available: {exc!r}") from exc
            await asyncio.sleep(0.5)


async def create_topics(bootstrap: str, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    wanted = dict(all_topic_names())
    admin = await _connect(bootstrap, deadline)
    try:
        existing = set(await admin.list_topics())
        to_create = [
            NewTopic(name=name, num_partitions=parts, replication_factor=REPLICATION_FACTOR)
            for name, parts in wanted.items()
            if name not in existing
        ]
        if to_create:
            resp = await admin.create_topics(to_create, timeout_ms=30_000)
            failed = []
            for err in resp.topic_errors:
                name, code = err[0], err[1]
                message = err[2] if len(err) > 2 else None
                if code not in (0, TOPIC_ALREADY_EXISTS):
                    failed.append(f"{name}: error {code} {message or ''}".strip())
            if failed:
                raise SystemExit("infra: ERROR: could not create topics:\n  " + "\n  ".join(failed))
        while True:
            missing = await _missing(admin, wanted)
            if not missing:
                break
            if time.monotonic() >= deadline:
                raise SystemExit(
                    f"infra: ERROR: topics not ready after {timeout:.0f}s: {', '.join(missing)}"
                )
            await asyncio.sleep(0.5)
        log(f"kafka topics ready: {len(wanted)} ({len(to_create)} created, "
            f"{len(wanted) - len(to_create)} already there)")
        await _warm_group_coordinator(admin, deadline)
        return 0
    finally:
        await admin.close()


async def ping(bootstrap: str) -> int:
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=5_000)
    try:
        await admin.start()
        await admin.describe_cluster()
        return 0
    except (KafkaError, OSError) as exc:
        print(f"infra: kafka not answering on {bootstrap}: {exc!r}", file=sys.stderr)
        return 1
    finally:
        await admin.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--bootstrap",
        default=os.environ.get("SKUFLOW_KAFKA_BOOTSTRAP", "127.0.0.1:9092"),
        help="Kafka bootstrap servers (default: $SKUFLOW_KAFKA_BOOTSTRAP or 127.0.0.1:9092)",
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait overall")
    parser.add_argument("--ping", action="store_true", help="only check that the broker answers")
    args = parser.parse_args()
    if args.ping:
        return asyncio.run(ping(args.bootstrap))
    return asyncio.run(create_topics(args.bootstrap, args.timeout))


if __name__ == "__main__":
    sys.exit(main())
