"""The profile tool tells a service's samples by what it was doing, and leaves waiting out."""

from skuflow_cli.profile import summarise

STACKS = """\
<module> (m.py:1);serve (skuflow_platform/runtime.py:9);EventConsumer.process (skuflow_platform/consumer.py:3);\
EventConsumer._attempt (skuflow_platform/consumer.py:5);run_handler (skuflow_platform/consumer.py:7);\
subscriptions.<locals>.on_page_bound (skuflow_output/service.py:200);deliver (x.py:3) 30
<module> (m.py:1);EventConsumer.process (skuflow_platform/consumer.py:3);decode (skuflow_contracts/codec.py:40) 10
<module> (m.py:1);OutboxRelay._run (skuflow_platform/outbox.py:60);\
OutboxRelay.relay_once (skuflow_platform/outbox.py:80) 5
<module> (m.py:1);Fetcher._fetch_requests_routine (aiokafka/consumer/fetcher.py:400) 4
<module> (m.py:1);Connection.execute (sqlalchemy/engine/base.py:1400) 3
<module> (m.py:1);BaseEventLoop._run_once (asyncio/base_events.py:1900) 2
<module> (m.py:1);BaseEventLoop._run_once (asyncio/base_events.py:1900);EpollSelector.select (selectors.py:468) 50
"""


def test_samples_are_told_by_activity_and_waiting_is_left_out(tmp_path):
    raw = tmp_path / "output.raw"
    raw.write_text(STACKS)
    samples, activities, own = summarise(raw)
    assert samples == 54  # the 50 samples waiting in select are not work
    assert activities == {"handler on_page_bound": 30, "consumer (decode, inbox, transaction, logs, span)": 10,
                          "outbox relay": 5, "kafka client": 4, "database driver (greenlet)": 3,
                          "event loop and the rest": 2}
    assert own["deliver (x.py)"] == 30  # line numbers folded: one function, one row
