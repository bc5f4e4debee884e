"""Rebuild the LLM evaluation set and its recorded answers: ``python -m tests.llm.build``.

Three generated catalogs whose last page is a 90-dpi scan (the rules misread most of its codes),
their truth, and the answers of the LLM paths recorded through the adapter's record mode. No
provider key is available where this set was built, so the answers come from a local server
speaking the Gemini and OpenAI protocols and scripted to read each scanned page right (an oracle):
the set proves that the LLM paths are wired, scored and replayed deterministically, not how good
a real model is. With keys, ``skuflow eval DIR --llm record`` records a real model's answers instead.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from pathlib import Path

from skuflow_cli.catalog import truth_document
from skuflow_cli.pipeline import read_document
from skuflow_llm import LLMSettings, build_llm_service
from skuflow_llm.testing import FakeProviderServer, Reply
from skuflow_platform.storage import LocalStorage
from tests.e2e.llm_catalog import catalog_with_scanned_page, oracle_answer, scanned_skus

HERE = Path(__file__).parent
SET, FIXTURES = HERE / "set", HERE / "fixtures"
SEEDS = (1401, 1402, 1403)
MODELS = ("gemini-2.5-pro", "qwen-vl-max")


async def record(pdf: Path, server: FakeProviderServer) -> None:
    settings = LLMSettings(gemini_api_key="recording", gemini_base_url=server.base_url, qwen_api_key="recording",
                           qwen_base_url=server.openai_base_url, recording_mode="record", fixtures_dir=FIXTURES,
                           langfuse_enabled=False, state_database_url=None)
    llm = build_llm_service(settings)
    try:
        with tempfile.TemporaryDirectory() as scratch:
            await read_document(pdf.read_bytes(), LocalStorage(Path(scratch)), llm)
    finally:
        await llm.aclose()


def main() -> None:
    shutil.rmtree(SET, ignore_errors=True)
    shutil.rmtree(FIXTURES, ignore_errors=True)
    SET.mkdir(parents=True)
    with FakeProviderServer() as server:
        for seed in SEEDS:
            pdf = SET / f"scan_{seed}.pdf"
            truth = catalog_with_scanned_page(pdf, seed=seed, dpi=90)
            document = truth_document(truth) | {"expected_route": "HYBRID", "source_kind": "generated-scan"}
            (SET / f"scan_{seed}.truth.json").write_text(json.dumps(document, ensure_ascii=False, indent=1))
            for model in MODELS:
                server.default(model, Reply(text=oracle_answer(scanned_skus(truth))))
            asyncio.run(record(pdf, server))
            print(f"{pdf.name}: {len(server.requests)} answers recorded so far")


if __name__ == "__main__":
    main()
