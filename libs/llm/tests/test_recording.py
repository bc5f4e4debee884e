"""Record provider answers once, replay them offline, deterministically (seed-001b §3.3)."""

from __future__ import annotations

import json

import pytest
from llm_pages import GEMINI, QWEN, page

from skuflow_llm.errors import FixtureMissingError
from skuflow_llm.testing import Reply

PAGE_B = json.dumps({"page_type": "B", "confidence": 0.9})


async def test_recorded_answers_replay_identically_without_a_network(fake, make_service, tmp_path):
    fixtures = tmp_path / "recorded"
    fake.script(QWEN, Reply(PAGE_B, input_tokens=321, output_tokens=12))
    recorded = await make_service(recording_mode="record", fixtures_dir=fixtures).classify_page(page())
    assert len(list((fixtures / QWEN).glob("*.json"))) == 1

    fake.reset()  # nothing scripted any more: only the fixtures can answer
    replayer = make_service(recording_mode="replay", fixtures_dir=fixtures, gemini_api_key="", qwen_api_key="")
    replays = [await replayer.classify_page(page()) for _ in range(3)]
    assert fake.requests == []
    for replay in replays:
        assert replay.answer == recorded.answer and replay.model_used == recorded.model_used == QWEN
        assert replay.parse_method == recorded.parse_method and replay.calls_made == 1
    fixture = json.loads(next((fixtures / QWEN).glob("*.json")).read_text())
    assert fixture["response"] == {"text": PAGE_B, "input_tokens": 321, "output_tokens": 12, "model": QWEN}
    assert "型号: A-100" in fixture["request"]["prompt"] and len(fixture["request"]["images"]) == 2


async def test_a_request_that_was_never_recorded_is_an_error(make_service, tmp_path):
    replayer = make_service(recording_mode="replay", fixtures_dir=tmp_path / "empty")
    with pytest.raises(FixtureMissingError) as caught:
        await replayer.classify_page(page(text=("型号: never recorded",)))
    assert caught.value.code == "FIXTURE_MISSING"
    assert await replayer.dispatcher.registry.get(GEMINI).probe() == "replay of 0 recorded answers"
