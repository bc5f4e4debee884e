"""Committing consumed offsets: one request for what a consumer handled in the last moment, not one per event.

A commit is a request to the broker and a write to its offsets log; one per event made one of each
for every event at every hop of the page stream. Deferring it is safe because an event's effects are
committed in its handler's transaction together with its id in the inbox: an offset committed late
only means that a crash or a rebalance delivers again events that were already handled, and the
inbox answers "duplicate". What the inbox does not hold (a letter sent to the DLQ) is committed at
once, so a restart does not send it twice.
"""

from __future__ import annotations

import asyncio
import logging

from aiokafka import AIOKafkaConsumer, ConsumerRecord, TopicPartition

log = logging.getLogger(__name__)

COMMIT_DELAY_SECONDS = 0.2  # how long a handled event's offset may wait for others to share its commit


class OffsetCommits:
    """Offsets of handled records, committed per consumer at most ``delay`` seconds after the first one."""

    def __init__(self, delay: float = COMMIT_DELAY_SECONDS) -> None:
        self.delay = delay
        self._pending: dict[AIOKafkaConsumer, dict[TopicPartition, int]] = {}
        self._scheduled: dict[AIOKafkaConsumer, asyncio.Task] = {}

    def handled(self, consumer: AIOKafkaConsumer, record: ConsumerRecord) -> None:
        """``record`` is done: its offset goes out with the consumer's next commit, within ``delay``."""
        self._pending.setdefault(consumer, {})[TopicPartition(record.topic, record.partition)] = record.offset + 1
        if consumer not in self._scheduled:
            self._scheduled[consumer] = asyncio.get_running_loop().create_task(self._later(consumer))

    async def handled_now(self, consumer: AIOKafkaConsumer, record: ConsumerRecord) -> None:
        """``record`` is done and must not be delivered again: commit it (and what waited) now."""
        self.handled(consumer, record)
        await self.flush(consumer)

    async def _later(self, consumer: AIOKafkaConsumer) -> None:
        await asyncio.sleep(self.delay)
        self._scheduled.pop(consumer, None)
        await self.flush(consumer)

    async def flush(self, consumer: AIOKafkaConsumer) -> None:
        offsets = self._pending.pop(consumer, None)
        if not offsets:
            return
        try:
            await consumer.commit(offsets)
        except Exception:  # the partition moved to another member, or the broker is away: redelivery, then the inbox
            log.info("offset commit failed; the events will be delivered again and found in the inbox",
                     exc_info=True, extra={"fields": {"partitions": len(offsets)}})

    async def close(self) -> None:
        """Commit what is waiting (at shutdown, before the consumers stop)."""
        for task in self._scheduled.values():
            task.cancel()
        self._scheduled.clear()
        for consumer in list(self._pending):
            await self.flush(consumer)
