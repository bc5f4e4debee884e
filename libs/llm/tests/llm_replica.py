"""One service replica in its own OS process: builds an ``LLMService`` from SKUFLOW_LLM_* variables (state
in Postgres), classifies ``count`` complex pages at the given clock time and prints the outcomes as JSON.

    python llm_replica.py NOW COUNT
"""

from __future__ import annotations

import asyncio
import json
import sys

from llm_pages import COMPLEX, page

from skuflow_llm import LLMError, build_llm_service
from skuflow_llm.clock import ManualClock


async def classify(now: float, count: int) -> list[dict]:
    clock = ManualClock(now)
    service = build_llm_service(clock=clock, sleep=clock.sleep)
    outcomes = []
    try:
        for _ in range(count):
            try:
                result = await service.classify_page(page(features=COMPLEX))
                outcomes.append({"model": result.model_used, "reason": result.downgrade_reason})
            except LLMError as exc:
                outcomes.append({"error": exc.code})
    finally:
        await service.aclose()
    return outcomes


if __name__ == "__main__":
    print(json.dumps(asyncio.run(classify(float(sys.argv[1]), int(sys.argv[2])))))
