"""Offsets committed in one request per moment, against the real broker: never before a record is
handled, within the delay after it, and at once for what the inbox does not remember."""

import asyncio

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition

from skuflow_platform.offsets import OffsetCommits


class CountedCommits(AIOKafkaConsumer):
    commits = 0

    async def commit(self, offsets=None):
        self.commits += 1
        await super().commit(offsets)


async def _records(kafka_bootstrap: str, new_topic, count: int):
    topic = await new_topic("offsets")
    producer = AIOKafkaProducer(bootstrap_servers=kafka_bootstrap)
    await producer.start()
    try:
        for n in range(count):
            await producer.send_and_wait(topic, f"event {n}".encode(), partition=0)
    finally:
        await producer.stop()
    partition = TopicPartition(topic, 0)
    consumer = CountedCommits(bootstrap_servers=kafka_bootstrap, group_id=f"{topic}.reader",
                              enable_auto_commit=False, auto_offset_reset="earliest")
    await consumer.start()
    consumer.assign([partition])
    records = []
    while len(records) < count:
        for batch in (await consumer.getmany(timeout_ms=2000)).values():
            records += batch
    return consumer, partition, records


async def test_handled_offsets_go_out_together_within_the_delay(kafka_bootstrap, new_topic):
    consumer, partition, records = await _records(kafka_bootstrap, new_topic, 20)
    commits = OffsetCommits(delay=0.3)
    try:
        for record in records[:12]:
            commits.handled(consumer, record)
        assert await consumer.committed(partition) is None  # nothing yet: the delay is not over
        await asyncio.sleep(0.6)
        assert await consumer.committed(partition) == 12  # the next record to read is the 13th
        assert consumer.commits == 1
    finally:
        await consumer.stop()


async def test_what_the_inbox_does_not_hold_is_committed_at_once(kafka_bootstrap, new_topic):
    consumer, partition, records = await _records(kafka_bootstrap, new_topic, 3)
    commits = OffsetCommits(delay=30)
    try:
        commits.handled(consumer, records[0])
        await commits.handled_now(consumer, records[1])  # a dead letter: committed with what waited
        assert await consumer.committed(partition) == 2
        commits.handled(consumer, records[2])
        await commits.close()  # shutdown commits what waits
        assert await consumer.committed(partition) == 3
        assert consumer.commits == 2
    finally:
        await consumer.stop()


async def test_a_failed_commit_is_left_to_redelivery(kafka_bootstrap, new_topic):
    consumer, _, records = await _records(kafka_bootstrap, new_topic, 1)
    await consumer.stop()
    commits = OffsetCommits(delay=30)
    await commits.handled_now(consumer, records[0])  # the consumer is gone: logged, not raised
    assert not commits._pending
