"""What the review-desk tests need around the running services: accounts made as an operator makes them,
machine readings delivered through Kafka as the binder would deliver them, review tasks for them, the
workbench logged in, and what output holds afterwards."""

from __future__ import annotations

import asyncio
import io
import json
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import httpx
import sqlalchemy as sa
from aiokafka import AIOKafkaProducer

from skuflow_cli.main import main as skuflow
from skuflow_contracts.codec import encode, envelope_for
from skuflow_contracts.events import PageBound
from skuflow_contracts.results import PageResult
from skuflow_contracts.topics import PAGE_BOUND
from skuflow_platform.auth import mint_token
from tests.e2e.stack import SECRET

CHROMIUM = "/usr/bin/chromium"
PASSWORD = "correct horse 77"
LOCK_SECONDS = 15  # the end-to-end stack's task lock without a heartbeat (SKUFLOW_TASK_LOCK_SECONDS)
TIMER_SECONDS = 2  # and its lock-expiry clock (SKUFLOW_TASK_TIMER_SECONDS)
REVIEW_ALL = {"extraction": {"sku_min_confidence": 0.999}}  # no reading is sure enough: every page is reviewed


def shots(tmp_path: Path) -> Path:
    """Where screenshots go: SKUFLOW_SCREENSHOTS=DIR keeps them (docs/screenshots holds the committed ones)."""
    out = Path(os.environ.get("SKUFLOW_SCREENSHOTS", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    return out


def account(pipeline, username: str, merchant: str, role: str = "annotator") -> str:
    """An account made with `skuflow user add` (once: the tests of a session share the database)."""
    with sa.create_engine(pipeline.database_url).connect() as conn:
        if conn.execute(sa.text("SELECT 1 FROM gateway.users WHERE username = :u"), {"u": username}).first():
            return username
    old_env, old_stdin = dict(os.environ), os.sys.stdin
    os.environ["SKUFLOW_DATABASE_URL"] = pipeline.database_url
    os.sys.stdin = io.StringIO(PASSWORD + "\n")
    try:
        assert skuflow(["user", "add", username, "--merchant", merchant, "--role", role, "--password-stdin"]) == 0
    finally:
        os.environ.clear()
        os.environ.update(old_env)
        os.sys.stdin = old_stdin
    return username


def seasoned(pipeline, username: str, merchant: str) -> str:
    """An annotator account with a clean record (a page done, none reverted): hard pages, the machine
    unsure of them, go only to accurate annotators."""
    user = account(pipeline, username, merchant)
    engine = sa.create_engine(pipeline.database_url)
    with engine.begin() as conn:
        user_id = conn.execute(sa.text("SELECT user_id FROM gateway.users WHERE username = :u"), {"u": user}).scalar()
        conn.execute(sa.text(
            "INSERT INTO collab.human_tasks (task_id, job_id, merchant_id, page, task_type, priority, status, reason,"
            " assigned_to, created_at, locked_at, completed_at) VALUES (:t, :j, :m, 1, 'SKU_REVIEW', 2, 'COMPLETED',"
            " 'earlier work', :a, now(), now(), now()) ON CONFLICT DO NOTHING"),
            {"t": str(uuid.uuid5(uuid.NAMESPACE_URL, user)), "j": f"earlier-{user}", "m": merchant, "a": user_id})
    engine.dispose()
    return user


@dataclass
class Reading:
    """A document's machine reading, as the binder hands it on: one page.bound per page."""

    job_id: str
    file_hash: str
    pages: list[PageResult]

    def bound(self, result: PageResult) -> PageBound:
        return PageBound(page=result.page, total_pages=len(self.pages), file_hash=self.file_hash, route="AUTO",
                         config_version="v1", ir_uri=f"local://jobs/{self.job_id}/ir/{result.page}.json",
                         result=result)


def reading_of(pages: list[PageResult], file_hash: str | None = None) -> Reading:
    return Reading(str(uuid.uuid4()), file_hash or uuid.uuid4().hex * 2, pages)


async def _publish(bootstrap: str, merchant: str, readings: list[Reading]) -> None:
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap)
    await producer.start()
    try:
        for reading in readings:
            for result in reading.pages:
                _, envelope = envelope_for(reading.bound(result), job_id=reading.job_id, merchant_id=merchant,
                                           producer="binder")
                await producer.send(PAGE_BOUND.name, encode(envelope), key=reading.job_id.encode())
        await producer.flush()
    finally:
        await producer.stop()


def deliver(pipeline, merchant: str, readings: list[Reading], timeout: float = 120) -> None:
    """Every page delivered as the machine read it (revision 1: pages the machine was sure of)."""
    sure = [Reading(r.job_id, r.file_hash, [p.model_copy(update={"needs_review": False}) for p in r.pages])
            for r in readings]
    asyncio.run(_publish(pipeline.bootstrap, merchant, sure))
    wait_rows(pipeline, "SELECT count(*) FROM output.page_results WHERE job_id = ANY(:jobs)",
              sum(len(r.pages) for r in readings), [r.job_id for r in readings], timeout)


def wait_rows(pipeline, query: str, expect: int, jobs: list[str], timeout: float = 120) -> None:
    engine = sa.create_engine(pipeline.database_url)
    deadline = time.monotonic() + timeout
    try:
        while True:
            with engine.connect() as conn:
                found = conn.execute(sa.text(query), {"jobs": jobs}).scalar_one()
            if found >= expect:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"{found} of {expect} rows after {timeout} s: {query}")
            time.sleep(0.3)
    finally:
        engine.dispose()


def review_tasks(pipeline, merchant: str, readings: list[Reading], assignee: str | None = None) -> list[str]:
    """A page-review task for every page, as collab makes one from a doubted page.bound, queued in
    reading order (``assignee``: dispatched to that username)."""
    engine = sa.create_engine(pipeline.database_url)
    made = []
    with engine.begin() as conn:
        user_id = conn.execute(sa.text("SELECT user_id FROM gateway.users WHERE username = :u"),
                               {"u": assignee}).scalar_one() if assignee else None
        for n, (reading, result) in enumerate((r, p) for r in readings for p in r.pages):
            task_id = str(uuid.uuid4())
            conn.execute(sa.text(
                "INSERT INTO collab.human_tasks (task_id, job_id, merchant_id, page, task_type, priority, status,"
                " reason, context, assigned_to, created_at) VALUES (:t, :j, :m, :p, 'SKU_REVIEW', 2, 'CREATED',"
                " 'low confidence', CAST(:c AS jsonb), :a, now() + make_interval(secs => :n / 1000.0))"),
                {"t": task_id, "j": reading.job_id, "m": merchant, "p": result.page, "n": n, "a": user_id,
                 "c": json.dumps(reading.bound(result).model_dump(mode="json"))})
            made.append(task_id)
    engine.dispose()
    return made


def bearer(pipeline, user: str) -> dict[str, str]:
    """The headers of ``user``'s login at the gateway, as the workbench makes it."""
    answer = httpx.post(f"{pipeline.gateway}/api/v1/auth/login", json={"username": user, "password": PASSWORD})
    answer.raise_for_status()
    return {"Authorization": f"Bearer {answer.json()['access_token']}"}


def task_row(pipeline, task_id: str) -> sa.Row:
    engine = sa.create_engine(pipeline.database_url)
    with engine.connect() as conn:
        row = conn.execute(sa.text("SELECT * FROM collab.human_tasks WHERE task_id = :t"), {"t": task_id}).one()
    engine.dispose()
    return row


def downstream(pipeline, jobs: list[str]) -> tuple[dict[tuple[str, int], tuple[int, dict]], list[sa.Row]]:
    """What output holds for the jobs: each page's revision and result, and every delivered SKU row."""
    engine = sa.create_engine(pipeline.database_url)
    with engine.connect() as conn:
        pages = {(row.job_id, row.page): (row.revision, row.result) for row in conn.execute(sa.text(
            "SELECT job_id, page, revision, result FROM output.page_results WHERE job_id = ANY(:jobs)"),
            {"jobs": jobs})}
        delivered = conn.execute(sa.text("SELECT job_id, sku_id, revision, status FROM output.deliveries"
                                         " WHERE job_id = ANY(:jobs)"), {"jobs": jobs}).all()
    engine.dispose()
    return pages, delivered


async def logged_in(browser, pipeline, user: str):
    page = await browser.new_page(viewport={"width": 1400, "height": 950})
    await page.goto(f"{pipeline.collab}/workbench/")
    await log_in(page, user)
    return page


async def log_in(page, user: str) -> None:
    await page.fill("input[name=username]", user)
    await page.fill("input[name=password]", PASSWORD)
    await page.keyboard.press("Enter")


async def open_task(page, after: str | None = None) -> str:
    """The id of the task the workbench shows, once it shows one (other than ``after``)."""
    title = page.locator("[data-testid=task-title]" + (f":not([data-task='{after}'])" if after else ""))
    await title.wait_for()
    return await title.get_attribute("data-task")


async def approve_all(page, count: int) -> list[str]:
    """Approve ``count`` tasks in a row as they come, each as shown (Ctrl+Enter), and their ids."""
    approved = []
    for _ in range(count):
        current = await open_task(page)
        await page.keyboard.press("Control+Enter")
        await page.locator(f"[data-testid=task-title][data-task='{current}']").wait_for(state="detached")
        approved.append(current)
    return approved


def reviewed_upload(pipeline, pdf: Path, merchant: str) -> str:
    """``pdf`` uploaded under the merchant's review-everything profile; its job id once read."""
    token = mint_token(user_id=f"admin-{merchant}", merchant_id=merchant, secret=SECRET, roles=("admin", "uploader"))
    with httpx.Client(base_url=pipeline.gateway, headers={"Authorization": f"Bearer {token}"}, timeout=60) as client:
        made = client.post("/api/v1/config/profiles", json={"profile_id": "review-all", "settings": REVIEW_ALL})
        assert made.status_code in (201, 409), made.text
        with pdf.open("rb") as handle:
            answer = client.post("/api/v1/jobs", params={"profile": "review-all"},
                                 files={"file": (pdf.name, handle, "application/pdf")})
    assert answer.status_code == 201, answer.text
    job_id = answer.json()["job_id"]
    deadline = time.monotonic() + 300  # a scan is read by OCR: a minute or two on two busy cores
    with pipeline.tasks("observer", merchant=merchant) as tasks:
        while not tasks.get("/api/v1/tasks", params={"job_id": job_id}).json()["tasks"]:
            assert time.monotonic() < deadline, f"no review task for job {job_id}: {pipeline.job(job_id, merchant)}"
            time.sleep(0.5)
    return job_id
