"""Consumer lag from the real broker's offsets: end offset minus what the group committed."""

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition

from skuflow_platform.lag import Reading, lags


async def test_lag_is_what_a_group_has_not_committed_yet(kafka_bootstrap, new_topic):
    topic = await new_topic("lag", partitions=2)
    producer = AIOKafkaProducer(bootstrap_servers=kafka_bootstrap)
    await producer.start()
    try:
        for n in range(5):
            await producer.send_and_wait(topic, b"x", partition=n % 2)  # 3 on partition 0, 2 on partition 1
    finally:
        await producer.stop()
    reader = AIOKafkaConsumer(bootstrap_servers=kafka_bootstrap, group_id=f"{topic}.reader", enable_auto_commit=False)
    await reader.start()
    try:
        reader.assign([TopicPartition(topic, 0)])
        await reader.commit({TopicPartition(topic, 0): 2})  # read two of partition 0, nothing of partition 1
    finally:
        await reader.stop()

    reading, idle, absent = (Reading(f"{topic}.reader", topic), Reading(f"{topic}.idle", topic),
                             Reading(f"{topic}.reader", f"{topic}.dlq"))
    found = await lags(kafka_bootstrap, [reading, idle, absent])

    assert found == {reading: 1 + 2, idle: 5, absent: 0}
