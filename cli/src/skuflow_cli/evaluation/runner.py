"""Running a golden set through skuflow: in-process (default) or through the running services."""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx

from skuflow_cli.evaluation.golden import GoldenDocument, load_golden_set
from skuflow_cli.evaluation.report import build_report
from skuflow_cli.evaluation.scoring import score_document
from skuflow_cli.pipeline import read_document
from skuflow_llm import LLMSettings, build_llm_service
from skuflow_parser.domain.document import UnreadableDocument
from skuflow_platform.auth import mint_token
from skuflow_platform.storage import LocalStorage


@dataclass
class Outcome:
    document: GoldenDocument
    result: dict | None
    error: str | None = None


def run_in_process(documents: list[GoldenDocument], llm: LLMSettings | None = None) -> list[Outcome]:
    """Every document through the in-process pipeline, in one event loop; with ``llm`` (record or
    replay settings) the model calls the services would make are made too."""
    return asyncio.run(_in_process(documents, llm))


async def _in_process(documents: list[GoldenDocument], settings: LLMSettings | None) -> list[Outcome]:
    llm = build_llm_service(settings) if settings else None
    outcomes = []
    try:
        for document in documents:
            with tempfile.TemporaryDirectory(prefix="skuflow-eval-") as scratch:
                try:
                    result = await read_document(document.pdf.read_bytes(), LocalStorage(Path(scratch)), llm)
                    outcomes.append(Outcome(document, result.model_dump(mode="json")))
                except UnreadableDocument as exc:
                    outcomes.append(Outcome(document, None, f"{exc.reason}: {exc.message}"))
    finally:
        if llm is not None:
            await llm.aclose()
    return outcomes


async def upload(client: httpx.AsyncClient, pdf: Path, deadline: float) -> httpx.Response:
    """POST the file, waiting out a rate limit (429) or an outage (503) as their Retry-After says."""
    while True:
        response = await client.post("/api/v1/jobs", files={"file": (pdf.name, pdf.read_bytes(), "application/pdf")})
        if response.status_code not in (429, 503) or time.monotonic() > deadline:
            return response
        await asyncio.sleep(float(response.headers.get("Retry-After", "1")))


async def _through_gateway(client: httpx.AsyncClient, document: GoldenDocument, timeout: float) -> Outcome:
    created = await upload(client, document.pdf, time.monotonic() + timeout)
    if created.status_code != 201:
        return Outcome(document, None, f"upload refused: {created.status_code} {created.text}")
    job_id = created.json()["job_id"]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = (await client.get(f"/api/v1/jobs/{job_id}")).json()
        if job["result_available"]:
            return Outcome(document, (await client.get(f"/api/v1/jobs/{job_id}/result")).json())
        if job["user_status"] == "failed":
            return Outcome(document, None, f"job {job_id} failed: {job['error_message']}")
        await asyncio.sleep(0.5)
    return Outcome(document, None, f"job {job_id} did not finish within {timeout}s")


async def run_via_services(documents: list[GoldenDocument], *, gateway: str, secret: str, concurrency: int = 4,
                           timeout: float = 600) -> list[Outcome]:
    token = mint_token(user_id="evaluation", merchant_id="evaluation", secret=secret)
    limit = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(base_url=gateway, headers={"Authorization": f"Bearer {token}"},
                                 timeout=60) as client:
        async def one(document: GoldenDocument) -> Outcome:
            async with limit:
                return await _through_gateway(client, document, timeout)

        return list(await asyncio.gather(*(one(d) for d in documents)))


def evaluate(golden_dir: Path, run: Callable[[list[GoldenDocument]], list[Outcome]], via: str,
             batch: str | None = None) -> dict:
    """Read and score every labelled document below ``golden_dir`` (with ``batch``: only the real set's
    documents of that batch, by ``sources.json`` beside them)."""
    documents = load_golden_set(golden_dir)
    if batch is not None:
        sources = json.loads((golden_dir / "sources.json").read_text(encoding="utf-8"))
        names = {s["name"] for s in sources if str(s["batch"]) == batch}
        documents = [d for d in documents if d.pdf.stem in names]
    return evaluate_documents(documents, run, {"golden_dir": str(golden_dir), "via": via})


def evaluate_documents(documents: list[GoldenDocument], run: Callable[[list[GoldenDocument]], list[Outcome]],
                       meta: dict) -> dict:
    """Read ``documents`` with ``run`` and score them: the report, with ``meta`` and the documents that
    could not be read."""
    started = time.perf_counter()
    outcomes = run(documents)
    seconds = time.perf_counter() - started
    scored, routes = [], []
    for outcome in outcomes:
        scored += score_document(outcome.document.name, outcome.document.truth, outcome.result)
        predicted_route = (outcome.result or {}).get("job", {}).get("route")
        routes.append((outcome.document.truth.get("expected_route"), predicted_route))
    total_pages = sum(len(o.document.truth["pages"]) for o in outcomes)
    errors = {o.document.name: o.error for o in outcomes if o.error}
    return build_report(scored, routes, seconds=seconds, total_pages=total_pages, meta={**meta, "errors": errors})
