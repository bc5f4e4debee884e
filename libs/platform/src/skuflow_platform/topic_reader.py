"""Reading what was produced on a topic after a remembered position (tests, benchmarks, ops)."""

import asyncio

from aiokafka import AIOKafkaConsumer, TopicPartition


async def end_offsets(bootstrap: str, topic: str) -> dict[TopicPartition, int]:
    consumer = AIOKafkaConsumer(topic, bootstrap_servers=bootstrap)
    await consumer.start()
    try:
        partitions = [TopicPartition(topic, p) for p in consumer.partitions_for_topic(topic) or ()]
        return await consumer.end_offsets(partitions)
    finally:
        await consumer.stop()


async def read_since(bootstrap: str, since: dict[TopicPartition, int], *, key: bytes | None = None,
                     expect: int = 1, timeout: float = 20) -> list:
    """Records after ``since`` (optionally only with ``key``), waiting until ``expect`` arrived."""
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    await consumer.start()
    try:
        consumer.assign(list(since))
        for partition, offset in since.items():
            consumer.seek(partition, offset)
        found: list = []
        deadline = asyncio.get_running_loop().time() + timeout
        while asyncio.get_running_loop().time() < deadline:
            batch = await consumer.getmany(timeout_ms=300)
            found += [r for records in batch.values() for r in records if key is None or r.key == key]
            if len(found) >= expect:
                await asyncio.sleep(0.5)  # linger: anything extra would show up now
                batch = await consumer.getmany(timeout_ms=300)
                found += [r for records in batch.values() for r in records if key is None or r.key == key]
                break
        return found
    finally:
        await consumer.stop()
