"""``skuflow-dlq list|replay --topic TOPIC [--job JOB_ID]``: inspect dead letters and send them back.

Replay republishes the original bytes, key and trace header to the original topic; consumers
that had already handled the event skip it through their inbox. A replay of a whole topic commits
what it sent in the consumer group ``skuflow-dlq-replay``, so a second replay does not resend it.
A replay of one job (``--job``) reads the topic from the start and commits nothing (offsets cannot
skip other jobs' letters); sending a letter again is harmless, the consumers' inboxes drop it.
The gateway's API does the same for one job over every topic at once (``/jobs/{id}/dead-letters``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition

from skuflow_platform.deadletter import DLQ_HEADERS, ERROR, ORIGINAL_TOPIC, dlq_topic, original_of
from skuflow_platform.settings import PlatformSettings

REPLAY_GROUP = "skuflow-dlq-replay"


async def _drain(consumer: AIOKafkaConsumer, idle_ms: int = 1500) -> list:
    records = []
    while True:
        batch = await consumer.getmany(timeout_ms=idle_ms)
        if not batch:
            return records
        for partition_records in batch.values():
            records.extend(partition_records)


async def dead_letters(bootstrap: str, topics: list[str], *, group: str | None) -> tuple[AIOKafkaConsumer, list]:
    """Every letter in the DLQs of ``topics`` (one pass over all of them)."""
    consumer = AIOKafkaConsumer(*map(dlq_topic, topics), bootstrap_servers=bootstrap, group_id=group,
                                enable_auto_commit=False, auto_offset_reset="earliest")
    await consumer.start()
    return consumer, await _drain(consumer)


def describe(record) -> dict:
    headers = {k: v.decode("utf-8", "replace") for k, v in record.headers}
    return {"offset": record.offset, "partition": record.partition,
            "key": record.key.decode("utf-8", "replace") if record.key else None,
            "original_topic": headers.get(ORIGINAL_TOPIC), "error": headers.get(ERROR),
            "failed_by": headers.get("x-failed-by"), "attempts": headers.get("x-attempts")}


def of_job(record, job_id: str) -> bool:
    """Page events are keyed by the job id, or by 'job/page' where pages spread over partitions."""
    key = record.key.decode("utf-8", "replace") if record.key else ""
    return key == job_id or key.startswith(f"{job_id}/")


async def list_dead_letters(bootstrap: str, topics: list[str], job_id: str | None = None) -> list[dict]:
    consumer, records = await dead_letters(bootstrap, topics, group=None)
    await consumer.stop()
    return [describe(r) for r in records if not job_id or of_job(r, job_id)]


async def replay(bootstrap: str, topics: list[str], *, limit: int | None = None,
                 job_id: str | None = None) -> list[dict]:
    consumer, records = await dead_letters(bootstrap, topics, group=None if job_id else REPLAY_GROUP)
    if job_id:
        records = [record for record in records if of_job(record, job_id)]
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all")
    await producer.start()
    replayed = []
    try:
        for record in records[:limit]:
            headers = [(k, v) for k, v in record.headers if k not in DLQ_HEADERS]
            original = dict(record.headers).get(ORIGINAL_TOPIC, original_of(record.topic).encode()).decode()
            await producer.send_and_wait(original, record.value, key=record.key, headers=headers)
            if not job_id:
                await consumer.commit({TopicPartition(record.topic, record.partition): record.offset + 1})
            replayed.append(describe(record))
    finally:
        await producer.stop()
        await consumer.stop()
    return replayed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="skuflow-dlq", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["list", "replay"])
    parser.add_argument("--topic", required=True, help="the original topic, e.g. skuflow.page.parsed.v1")
    parser.add_argument("--limit", type=int, default=None, help="replay at most this many")
    parser.add_argument("--job", default=None, help="only the letters of this job")
    args = parser.parse_args(argv)
    bootstrap = PlatformSettings().kafka_bootstrap
    if args.command == "list":
        rows = asyncio.run(list_dead_letters(bootstrap, [args.topic], args.job))
    else:
        rows = asyncio.run(replay(bootstrap, [args.topic], limit=args.limit, job_id=args.job))
    for row in rows:
        print(json.dumps(row, ensure_ascii=False))
    print(f"{len(rows)} message(s) {'listed' if args.command == 'list' else 'replayed'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
