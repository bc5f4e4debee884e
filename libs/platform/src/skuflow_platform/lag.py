"""How far consumer groups are behind their topics, from Kafka's own offsets.

A group's lag on a topic is, summed over the topic's partitions, the end offset minus the offset the
group committed (from the start of the log where it committed nothing yet). The same sum over a
dead-letter topic for the replay group is the number of letters not replayed yet. Every replica of
a service reads the same figures, so a dashboard takes their max, not their sum.
"""

from __future__ import annotations

from dataclasses import dataclass

from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient


@dataclass(frozen=True)
class Reading:
    """A consumer group reading a topic."""

    group: str
    topic: str


async def lags(bootstrap: str, readings: list[Reading]) -> dict[Reading, int]:
    """Each reading's lag; a topic that does not exist yet has none."""
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    ends = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    await admin.start()
    await ends.start()
    try:
        described = await admin.describe_topics(sorted({r.topic for r in readings}))
        partitions = {t["topic"]: [TopicPartition(t["topic"], p["partition"]) for p in t["partitions"]]
                      for t in described if t["error_code"] == 0}
        every = [tp for tps in partitions.values() for tp in tps]
        end, start = await ends.end_offsets(every), await ends.beginning_offsets(every)
        result = {}
        for group in {r.group for r in readings}:
            committed = await admin.list_consumer_group_offsets(group)
            for reading in (r for r in readings if r.group == group):
                result[reading] = sum(end[tp] - _position(committed.get(tp), start[tp])
                                      for tp in partitions.get(reading.topic, ()))
        return result
    finally:
        await ends.stop()
        await admin.close()


def _position(committed, log_start: int) -> int:
    return committed.offset if committed is not None and committed.offset >= 0 else log_start
