"""The HTTP importer (seed-001a §7.26–7.27): each final page's valid SKUs are POSTed to the
downstream system's import endpoint, and its answer moves the page's import (domain/imports.py).

Nothing is lost on a crash: an import is a row written in the same transaction as the page's
deliveries. A call is claimed by pushing its due time forward (a lease), made outside any
transaction, and its answer recorded afterwards; a worker that dies mid-call leaves the row due
again when the lease ends, and the receiver's dedup on each SKU's delivery key makes the repeated
call harmless. Every move is audited and announced as ``page.imported``, which is what completes
the job (INV-04) in the output service's own consumer.

The protocol a receiver implements is in docs/importer.md.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

import httpx
import sqlalchemy as sa
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from skuflow_contracts.events import PageImported
from skuflow_contracts.ids import delivery_key
from skuflow_contracts.imports import ImportedImage, ImportedPage, ImportedSku
from skuflow_contracts.results import ImageRecord, PageResult
from skuflow_output.deliveries import live_deliveries, live_on, move_skus
from skuflow_output.domain.completion import CANCELLED
from skuflow_output.domain.imports import (
    ASSUMED,
    FAILED,
    PAGE_IMPORT,
    PENDING,
    Answer,
    answer_of,
    backoff_seconds,
    page_key,
)
from skuflow_output.metrics import STALE_SKIPPED, count_import
from skuflow_output.tables import imports, jobs, page_results, platform
from skuflow_platform.db import from_now
from skuflow_platform.outbox import add_to_outbox
from skuflow_platform.runtime import Periodic, ServiceContext
from skuflow_platform.signed_urls import FileLinks, FileLinkSettings

log = logging.getLogger(__name__)

class ImportSettings(BaseSettings):
    """``SKUFLOW_IMPORT_*``. Without a URL there is no HTTP import: the Kafka topic is the delivery."""

    model_config = SettingsConfigDict(env_prefix="SKUFLOW_IMPORT_", extra="ignore")

    url: str = ""
    timeout_seconds: float = 10.0
    poll_seconds: float = 1.0
    batch: int = 8
    backoff_seconds: float = 2.0
    backoff_cap_seconds: float = 300.0
    reconcile_seconds: float = 1800.0  # ASSUMED_CHECK_INTERVAL
    stale_seconds: float = 86400.0  # FAILED_STALE_THRESHOLD: a failing import is skipped after a day

    @property
    def enabled(self) -> bool:
        return bool(self.url)


def linked_images(result: PageResult) -> dict[str, list[ImageRecord]]:
    """Each SKU's bound image, by sku_id."""
    images = {image.image_id: image for image in result.images}
    return {b.sku_id: [images[b.image_id]] for b in result.bindings if b.image_id in images}


async def enqueue(conn: AsyncConnection, job_id: str, merchant_id: str, page: int, revision: int,
                  sku_count: int) -> None:
    """Due at once; the page's newer revision (one that replaced its result) supersedes its imports of
    every other revision not yet made."""
    waiting = (await conn.execute(sa.select(imports).where(
        imports.c.job_id == job_id, imports.c.page == page, imports.c.revision != revision,
        imports.c.status.in_((PENDING, FAILED))).with_for_update())).all()
    for row in waiting:
        await _move(conn, row, "supersede")
    await conn.execute(pg_insert(imports).values(
        job_id=job_id, page=page, revision=revision, merchant_id=merchant_id,
        status=PAGE_IMPORT.fire(None, "deliver"), sku_count=sku_count, next_attempt_at=sa.func.now(),
    ).on_conflict_do_nothing())


async def stop_job(conn: AsyncConnection, job_id: str) -> None:
    """A cancelled job's imports not yet made are skipped (nothing more goes downstream)."""
    waiting = (await conn.execute(sa.select(imports).where(
        imports.c.job_id == job_id, imports.c.status.in_((PENDING, FAILED))).with_for_update())).all()
    for row in waiting:
        await _move(conn, row, "cancel")


async def job_import_statuses(conn: AsyncConnection, job_id: str) -> list[str]:
    return list((await conn.execute(sa.select(imports.c.status).where(imports.c.job_id == job_id))).scalars())


@dataclass
class Importer:
    ctx: ServiceContext
    settings: ImportSettings
    file_links: FileLinkSettings = field(default_factory=FileLinkSettings)

    def periodic(self) -> list[Periodic]:
        return [Periodic("import_pages", self.settings.poll_seconds, self.import_due),
                Periodic("reconcile_imports", self.settings.reconcile_seconds, self.reconcile)]

    async def import_due(self) -> int:
        """Call the receiver for every import that is due; returns how many calls were made."""
        claimed = await self._claim()
        if not claimed:
            return 0
        async with httpx.AsyncClient(timeout=self.settings.timeout_seconds) as client:
            answers = await asyncio.gather(*(self._call(client, row) for row in claimed))
        for row, answer in zip(claimed, answers, strict=True):
            await self._record(row, answer)
        self.ctx.relay.wake()
        return len(claimed)

    async def reconcile(self) -> int:
        """§7.27: ask about each assumed import, and skip imports failing for longer than a day."""
        async with self.ctx.db.transaction() as conn:
            assumed = (await conn.execute(sa.select(imports).where(imports.c.status == ASSUMED))).all()
        moved = 0
        async with httpx.AsyncClient(timeout=self.settings.timeout_seconds) as client:
            for row in assumed:
                if await self._confirmed(client, row):
                    moved += await self._settle(row, ASSUMED, "reconciled")
        async with self.ctx.db.transaction() as conn:
            stale = (await conn.execute(sa.select(imports).where(
                imports.c.status == FAILED, imports.c.failing_since < from_now(-self.settings.stale_seconds)))).all()
        for row in stale:
            log.warning("import_failed_stale", extra={"fields": {"job_id": row.job_id, "page": row.page}})
            skipped = await self._settle(row, FAILED, "stale_import_timeout")
            STALE_SKIPPED.inc(skipped)
            moved += skipped
        if moved:
            self.ctx.relay.wake()
        return moved

    async def _claim(self) -> list[sa.Row]:
        lease = self.settings.timeout_seconds * 2
        due = sa.select(imports.c.job_id, imports.c.page, imports.c.revision).join(
            jobs, jobs.c.job_id == imports.c.job_id).where(
            imports.c.status.in_((PENDING, FAILED)), imports.c.next_attempt_at <= sa.func.now(),
            jobs.c.status != CANCELLED).order_by(imports.c.next_attempt_at).limit(
            self.settings.batch).with_for_update(of=imports, skip_locked=True).cte("due")
        async with self.ctx.db.transaction() as conn:
            claimed = (await conn.execute(imports.update().where(
                sa.tuple_(imports.c.job_id, imports.c.page, imports.c.revision).in_(sa.select(due))).values(
                next_attempt_at=from_now(lease)).returning(
                imports))).all()
            for row in claimed:
                await move_skus(conn, "import", *live_on(row.job_id, row.page))
            return claimed

    async def _call(self, client: httpx.AsyncClient, row: sa.Row) -> Answer | None:
        """The receiver's answer, or None when the page's result is no longer this revision."""
        async with self.ctx.db.transaction() as conn:
            found = (await conn.execute(sa.select(page_results.c.result, page_results.c.revision, jobs.c.file_hash)
                                        .join(jobs, jobs.c.job_id == page_results.c.job_id).where(
                page_results.c.job_id == row.job_id, page_results.c.page == row.page))).first()
            live = await live_deliveries(conn, row.job_id, row.page)
        if found is None or found.revision != row.revision:
            return None
        try:
            body = self._body(row, PageResult.model_validate(found.result), found.file_hash or "",
                              {sku_id: delivery.revision for sku_id, delivery in live.items()},
                              self.file_links.links(self.ctx.settings.jwt_secret))
            response = await client.post(self.settings.url, json=body.model_dump(mode="json", exclude_none=True),
                                         headers={"Idempotency-Key": body.key})
        except Exception as exc:  # this page's call failed, not the batch: tried again after a wait
            if not isinstance(exc, httpx.HTTPError):
                log.exception("import call could not be made", extra={"fields": {"job_id": row.job_id,
                                                                                   "page": row.page}})
            return answer_of(None, error=f"{type(exc).__name__}: {exc}"[:300])
        try:
            reply = response.json()
        except ValueError:
            reply = None
        return answer_of(response.status_code, reply)

    @staticmethod
    def _body(row: sa.Row, result: PageResult, file_hash: str, revisions: dict[str, int],
              links: FileLinks) -> ImportedPage:
        """The page as downstream should hold it after this revision: each SKU under the key of the
        revision that delivered its content (one a review left unchanged keeps its earlier key)."""
        bound = linked_images(result)
        skus = [ImportedSku(key=delivery_key(row.merchant_id, row.job_id, revisions.get(sku.sku_id, row.revision),
                                             sku.sku_id),
                            sku_id=sku.sku_id, confidence=sku.confidence, attributes=sku.attributes,
                            images=[ImportedImage(**links.image(image.image_id, image.source_uri).model_dump(),
                                                  role=image.role, short_edge=image.short_edge)
                                    for image in bound.get(sku.sku_id, []) if image.source_uri])
                for sku in result.skus if sku.validity == "valid"]
        return ImportedPage(key=page_key(row.merchant_id, row.job_id, row.revision, row.page),
                            merchant_id=row.merchant_id, job_id=row.job_id, page=row.page, revision=row.revision,
                            file_hash=file_hash, skus=skus)

    async def _record(self, row: sa.Row, answer: Answer | None) -> None:
        async with self.ctx.db.transaction() as conn:
            current = (await conn.execute(sa.select(imports).where(
                imports.c.job_id == row.job_id, imports.c.page == row.page,
                imports.c.revision == row.revision).with_for_update())).one()
            if current.status != row.status:
                return  # superseded or cancelled while the call was out
            if answer is None:
                await _move(conn, current, "supersede")
                return
            count_import(answer, row.sku_count)
            attempts = current.attempts + 1
            wait = backoff_seconds(attempts, self.settings.backoff_seconds, self.settings.backoff_cap_seconds)
            due = from_now(wait) if answer.retry else None
            await _move(conn, current, answer.trigger, self.ctx.tables.outbox, attempts=attempts,
                        last_error=answer.error, next_attempt_at=due)
            await move_skus(conn, "import_err" if answer.trigger == "failed" else "import_ok",
                            *live_on(row.job_id, row.page))

    async def _confirmed(self, client: httpx.AsyncClient, row: sa.Row) -> bool:
        key = page_key(row.merchant_id, row.job_id, row.revision, row.page)
        try:
            response = await client.get(f"{self.settings.url.rstrip('/')}/status", params={"key": key})
            return response.status_code == 200 and response.json().get("confirmed") is True
        except (httpx.HTTPError, ValueError, AttributeError):
            return False  # asked again at the next pass

    async def _settle(self, row: sa.Row, expected: str, trigger: str) -> int:
        async with self.ctx.db.transaction() as conn:
            current = (await conn.execute(sa.select(imports).where(
                imports.c.job_id == row.job_id, imports.c.page == row.page,
                imports.c.revision == row.revision).with_for_update())).one()
            if current.status != expected:
                return 0
            await _move(conn, current, trigger, self.ctx.tables.outbox)
            return 1


async def _move(conn: AsyncConnection, row: sa.Row, trigger: str, outbox: sa.Table | None = None,
                **changes: object) -> None:
    """Fire ``trigger`` on the import with ``changes`` to its columns, audit the move, and announce
    a new state as ``page.imported`` when ``outbox`` is given (superseding and cancelling are moves
    nobody downstream waits for)."""
    to = PAGE_IMPORT.fire(row.status, trigger)
    values = {"attempts": row.attempts, "last_error": row.last_error, **changes}
    if to == FAILED and row.status != FAILED:
        values["failing_since"] = sa.func.now()
    await conn.execute(imports.update().where(
        imports.c.job_id == row.job_id, imports.c.page == row.page, imports.c.revision == row.revision,
    ).values(status=to, updated_at=sa.func.now(), **values))
    error = values["last_error"] if to == FAILED else None
    await conn.execute(platform.state_transitions.insert().values(
        entity="page_import", entity_id=page_key(row.merchant_id, row.job_id, row.revision, row.page),
        from_status=row.status, to_status=to, reason=error,
        detail={"trigger": trigger, "attempts": values["attempts"]}))
    if outbox is not None and to != row.status:
        await add_to_outbox(conn, outbox, PageImported(
            page=row.page, revision=row.revision, status=to, sku_count=row.sku_count,
            attempts=values["attempts"], error=error), job_id=row.job_id, merchant_id=row.merchant_id,
            producer="output", traceparent=None)
