"""The task API (seed-001b §2.1): list, detail, next, lock, heartbeat, release, complete, skip, revert.

Every query is scoped to the caller's merchant: another merchant's task answers 404, as if it did
not exist. The database is the lock's authority (one UPDATE … WHERE status = 'CREATED' wins); an
illegal move answers 409 with the task's status; a move the caller's role does not allow, 403. A
completion is a patch of what the annotator changed (domain/corrections.py): one that would change
a value the page does not hold is refused (409 STALE_VALUE) and nothing of it is kept.
"""

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Annotated, Literal

import sqlalchemy as sa
from fastapi import APIRouter, HTTPException, Path, Query, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.dialects.postgresql import insert as pg_insert

from skuflow_collab import pages, store
from skuflow_collab.api import examples
from skuflow_collab.domain import dispatch, queue
from skuflow_collab.domain.corrections import RENDER_DPI, InvalidCorrection, PagePatch, StaleValue, apply
from skuflow_collab.domain.lifecycle import FINAL, IllegalMove, NotAllowed
from skuflow_collab.domain.tasks import REASONS_APART
from skuflow_collab.settings import CollabSettings
from skuflow_collab.tables import annotation_examples, annotations, documents, human_tasks
from skuflow_contracts.events import PageBound
from skuflow_contracts.reasons import explain_all
from skuflow_contracts.results import PageResult
from skuflow_platform.access import ANNOTATORS, caller
from skuflow_platform.auth import Principal
from skuflow_platform.db import from_now
from skuflow_platform.openapi import answer
from skuflow_platform.runtime import ServiceContext

EXAMPLE_QUALITY = 0.85  # annotations by annotators at least this accurate become few-shot examples
Status = Literal["CREATED", "ESCALATED", "PROCESSING", "COMPLETED", "SKIPPED"]
TaskId = Annotated[str, Path(pattern=r"^[\w-]{1,64}$")]
MAX_OFFSET = 1_000_000


class Reason(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"reason": "the page is a cover, not a product page"}]})

    reason: str = Field(min_length=1, max_length=2000, pattern=r"^[^\x00]+$")


def _summary(task: sa.Row) -> dict:
    return {"task_id": task.task_id, "job_id": task.job_id, "page": task.page, "task_type": task.task_type,
            "status": task.status, "priority": task.priority, "sla_level": task.sla_level, "reason": task.reason,
            "created_at": task.created_at.isoformat(), "locked_by": task.locked_by,
            "lock_expires_at": task.lock_expires_at.isoformat() if task.lock_expires_at else None,
            "rework_count": task.rework_count, "difficulty": task.difficulty, "skip_reason": task.skip_reason,
            "reasons": explain_all(task.reason.split(REASONS_APART))}


def _base(task: sa.Row, work: PageBound) -> PageResult:
    """The page the annotator is shown and patches: the machine's reading, or for a rework the page
    as the reverted correction left it."""
    return PageResult.model_validate(task.reviewed) if task.reviewed else work.result


def routes(ctx: ServiceContext) -> APIRouter:
    router = APIRouter(prefix="/tasks", tags=["tasks"])
    Annotator = caller(ctx.settings.jwt_secret, *ANNOTATORS)
    settings = CollabSettings()

    def lock_until() -> datetime:
        return datetime.now(UTC) + timedelta(seconds=settings.task_lock_seconds)

    def refused(exc: Exception, code: str = "ILLEGAL_TRANSITION") -> HTTPException:
        if isinstance(exc, NotAllowed):
            return HTTPException(403, str(exc))
        assert isinstance(exc, IllegalMove)
        return HTTPException(409, {"error_code": code, "message": str(exc), "status": exc.status})

    async def moved(conn, task: sa.Row, trigger: str, who: Principal, reason: str | None = None,
                    code: str = "ILLEGAL_TRANSITION", **values: object) -> None:
        """``store.change`` by the caller, a refused move answered 409 (with ``code``) or 403."""
        try:
            await store.change(conn, task, trigger, who.roles, who.user_id, reason, **values)
        except (IllegalMove, NotAllowed) as exc:
            raise refused(exc, code) from exc

    async def document_attributes(job_id: str) -> dict:
        async with ctx.db.transaction() as conn:
            found = (await conn.execute(sa.select(documents.c.global_attributes).where(
                documents.c.job_id == job_id))).scalar_one_or_none()
        return found or {}

    async def detail(task: sa.Row) -> dict:
        work = PageBound.model_validate(task.context) if task.context else None
        result = _base(task, work) if work else None
        size = await asyncio.to_thread(pages.page_size, ctx.storage, task.job_id, task.page)
        blocks, words = await asyncio.to_thread(pages.page_text, ctx.storage, work.ir_uri) if work else ([], [])
        base = f"/api/v1/tasks/{task.task_id}/page-image"
        async with ctx.db.transaction() as conn:
            rework = await store.last_revert(conn, task) if task.rework_count else None
            sizes = await store.clusters(conn, task.merchant_id, {task.job_id}) if task.layout else {}
        return {**_summary(task), "result": result.model_dump(mode="json") if result else None,
                "reading": work.reading if work else 0,
                "adapted_from": work.adapted_from.model_dump(mode="json") if work and work.adapted_from else None,
                "similar_pages": queue.similar_pages(task.job_id, task.layout, task.status not in FINAL, sizes),
                "page_size": list(size[:2]) if size else None, "text_blocks": blocks, "words": words,
                "page_image_url": base if size else None,
                "context_pages": {
                    "previous": f"{base}?offset=-1" if size and task.page > 1 else None,
                    "next": f"{base}?offset=1" if size and task.page < size[2] else None},
                "doc_global_attributes": await document_attributes(task.job_id), "rework": rework}

    async def existing(conn, task_id: str, who: Principal, lock: bool = False) -> sa.Row:
        task = await store.find(conn, task_id, who.merchant_id, lock=lock)
        if task is None:
            raise HTTPException(404, f"no task {task_id}")
        return task

    def held(task: sa.Row, who: Principal) -> None:
        if task.status == "PROCESSING" and task.locked_by != who.user_id:
            raise HTTPException(409, {"error_code": "LOCKED_BY_OTHER", "message": "another annotator holds this task",
                                      "status": task.status})

    @router.get("", responses=answer(examples.TASKS))
    async def list_tasks(who: Annotator, status: Status | None = None,
                         task_type: Annotated[str | None, Query(pattern=r"^[A-Z_]{1,40}$")] = None,
                         job_id: Annotated[str | None, Query(pattern=r"^[\w-]{1,100}$")] = None,
                         limit: Annotated[int, Query(ge=1, le=200)] = 50,
                         offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0) -> dict:
        t = human_tasks.c
        where = [t.merchant_id == who.merchant_id]
        where += [t.status == status] if status else []
        where += [t.task_type == task_type] if task_type else []
        where += [t.job_id == job_id] if job_id else []
        async with ctx.db.transaction() as conn:
            total = (await conn.execute(sa.select(sa.func.count()).where(*where))).scalar_one()
            rows = (await conn.execute(sa.select(human_tasks).where(*where).order_by(
                t.priority, t.created_at, t.task_id).limit(limit).offset(offset))).all()
        return {"total": total, "tasks": [_summary(r) for r in rows]}

    @router.get("/next", responses={**answer(several={"task": examples.DETAIL, "rework": examples.REWORK_DETAIL}),
                                    204: {"description": "no task waits for you"}})
    async def next_task(who: Annotator, response: Response) -> dict | None:
        """The task this annotator should take now (§7.28): one they hold already (a tab closed, a
        login ended), then one dispatched to them, then the public queue (tasks dispatched to someone
        else join it once the SLA has raised them past HIGH); hard pages only for accurate annotators;
        a task they passed on comes back to them only after the release cool-down; most urgent, the
        job waiting longest, and within it the page whose correction teaches the most others
        (domain/queue.py)."""
        t = human_tasks.c
        async with ctx.db.transaction() as conn:
            await store.remember_person(conn, who)  # someone a team lead may hand tasks to from now on
            me = await store.profile(conn, who.user_id, who.merchant_id)
            held_by_me = sa.and_(t.status == "PROCESSING", t.locked_by == who.user_id)
            waiting = [t.status == "CREATED",
                       sa.or_(t.assigned_to.is_(None), t.assigned_to == who.user_id,
                              t.sla_level.in_(("CRITICAL", "AUTO_RESOLVE"))),
                       sa.or_(t.released_by.is_distinct_from(who.user_id), t.released_at.is_(None),
                              t.released_at < from_now(-settings.release_cooldown_seconds))]
            if not dispatch.eligible(me, difficulty=0.0):
                waiting.append(t.difficulty >= dispatch.HARD)
            standing = sa.case((held_by_me, 0), (t.assigned_to == who.user_id, 1), else_=2).label("standing")
            candidates = [queue.Waiting(**row._mapping) for row in await conn.execute(sa.select(
                t.task_id, t.job_id, t.layout, standing, t.priority, t.difficulty, t.created_at).where(
                t.merchant_id == who.merchant_id, sa.or_(held_by_me, sa.and_(*waiting))))]
            chosen = queue.first(candidates, await store.clusters(conn, who.merchant_id,
                                                                  {c.job_id for c in candidates}))
            task = await store.find(conn, chosen.task_id, who.merchant_id) if chosen else None
        if task is None:
            response.status_code = 204
            return None
        return await detail(task)

    @router.get("/{task_id}", responses=answer(several={"task": examples.DETAIL, "rework": examples.REWORK_DETAIL}))
    async def get_task(task_id: TaskId, who: Annotator) -> dict:
        async with ctx.db.transaction() as conn:
            task = await existing(conn, task_id, who)
        return await detail(task)

    @router.get("/{task_id}/page-image", response_class=Response, responses={200: {
        "content": {"image/png": {}},
        "description": "the page (sharp: drawn at twice the resolution, for zooming in; with offset, its neighbour as "
                       "a thumbnail)"}})
    async def page_image(task_id: TaskId, who: Annotator, offset: Annotated[int, Query(ge=-1, le=1)] = 0,
                         sharp: bool = False) -> Response:
        async with ctx.db.transaction() as conn:
            task = await existing(conn, task_id, who)
        dpi = pages.THUMBNAIL_DPI if offset else pages.SHARP_DPI if sharp else pages.DPI
        data = await asyncio.to_thread(pages.page_png, ctx.storage, task.job_id, task.page + offset, dpi)
        if data is None:
            raise HTTPException(404, "no picture of that page")
        return Response(data, media_type="image/png", headers={"Cache-Control": "private, max-age=3600"})

    @router.post("/{task_id}/lock", responses=answer(examples.LOCKED))
    async def lock(task_id: TaskId, who: Annotator) -> dict:
        """Take the task; taking one's own again renews its lock (a reloaded tab, a new login)."""
        until = lock_until()
        async with ctx.db.transaction() as conn:
            await store.remember_person(conn, who)
            if not await store.claim(conn, task_id, who.merchant_id, who.user_id, until):
                task = await existing(conn, task_id, who, lock=True)
                if task.status == "PROCESSING" and task.locked_by == who.user_id:
                    await conn.execute(human_tasks.update().where(human_tasks.c.task_id == task_id).values(
                        lock_expires_at=until))
                elif task.status == "ESCALATED":
                    await moved(conn, task, "supervisor_assign", who, locked_by=who.user_id, locked_at=sa.func.now(),
                                lock_expires_at=until, assigned_to=who.user_id)
                else:
                    held(task, who)
                    raise refused(IllegalMove(task.status, "lock"))
            task = await existing(conn, task_id, who)
        return _summary(task)

    @router.post("/{task_id}/heartbeat", responses=answer(examples.HEARTBEAT))
    async def heartbeat(task_id: TaskId, who: Annotator) -> dict:
        async with ctx.db.transaction() as conn:
            task = await existing(conn, task_id, who, lock=True)
            if task.status != "PROCESSING" or task.locked_by != who.user_id:
                held(task, who)
                refusal = refused(IllegalMove(task.status, "heartbeat"))
                refusal.detail["skip_reason"] = task.skip_reason  # e.g. the page was re-read and needs no one
                raise refusal
            until = lock_until()
            await conn.execute(human_tasks.update().where(human_tasks.c.task_id == task_id).values(
                lock_expires_at=until))
        return {"task_id": task_id, "lock_expires_at": until.isoformat(),
                "lock_seconds": settings.task_lock_seconds}

    async def mine(conn, task_id: str, who: Principal) -> sa.Row:
        task = await existing(conn, task_id, who, lock=True)
        held(task, who)
        return task

    @router.post("/{task_id}/release", responses=answer(examples.TASK))
    async def release(task_id: TaskId, who: Annotator,
                      closed: Annotated[bool, Query(description="the workbench's tab closed: the task is free "
                                                                "again, for its holder too")] = False) -> dict:
        """Give the task back. Passed on (R), it goes to the others first: the annotator is offered it
        again only after the release cool-down. A closing tab's release frees it for anyone."""
        async with ctx.db.transaction() as conn:
            task = await mine(conn, task_id, who)
            passed = {} if closed else {"released_by": who.user_id, "released_at": sa.func.now()}
            await moved(conn, task, "release", who, "tab closed" if closed else None, locked_by=None, locked_at=None,
                        lock_expires_at=None, assigned_to=None, **passed)
            return _summary(await existing(conn, task_id, who))

    @router.post("/{task_id}/complete", responses={
        **answer(examples.COMPLETED), 409: {"description": "not yours, not open, or STALE_VALUE: a change replaces "
                                                           "a value the page does not hold"}})
    async def complete(task_id: TaskId, body: PagePatch, who: Annotator) -> dict:
        async with ctx.db.transaction() as conn:
            task = await mine(conn, task_id, who)
            if task.context is None:
                raise HTTPException(409, "this task holds no page result to correct")
            work = PageBound.model_validate(task.context)
            base = _base(task, work)
            try:
                reviewed, notes = apply(base, body, work.file_hash)
            except InvalidCorrection as exc:
                raise HTTPException(422, str(exc)) from exc
            except StaleValue as exc:
                raise HTTPException(409, {"error_code": "STALE_VALUE", "message": str(exc), "where": exc.where,
                                          "status": task.status}) from exc
            drawn = {i.image_id for i in reviewed.images} - {i.image_id for i in base.images}
            reviewed = await asyncio.to_thread(pages.cut_pictures, ctx.storage, task.job_id, reviewed, drawn,
                                               RENDER_DPI)
            await store.remember_person(conn, who)
            await moved(conn, task, "complete", who, locked_by=None, lock_expires_at=None,
                        completed_at=sa.func.now(), result=body.model_dump(mode="json", exclude_defaults=True),
                        reviewed=reviewed.model_dump(mode="json"))
            if notes:
                await conn.execute(annotations.insert(), [
                    {"task_id": task_id, "job_id": task.job_id, "merchant_id": task.merchant_id, "page": task.page,
                     "annotator": who.user_id, "type": n.type, "payload": n.payload} for n in notes])
            me = await store.profile(conn, who.user_id, who.merchant_id)
            if me.accuracy >= EXAMPLE_QUALITY and notes:
                await conn.execute(pg_insert(annotation_examples).values(
                    task_id=task_id, task_type=task.task_type, merchant_id=task.merchant_id,
                    input_context=task.reason, output_json=reviewed.model_dump(mode="json"),
                    quality_score=me.accuracy, is_confirmed=True).on_conflict_do_nothing())
            await store.publish_review(conn, task, work, reviewed)
            summary = _summary(await existing(conn, task_id, who))
        ctx.relay.wake()
        return {**summary, "annotations": [n.type for n in notes]}

    @router.post("/{task_id}/skip", responses=answer(examples.SKIPPED))
    async def skip(task_id: TaskId, body: Reason, who: Annotator) -> dict:
        """Not processable: the machine's reading stands, so the job is not blocked by this page."""
        async with ctx.db.transaction() as conn:
            task = await mine(conn, task_id, who)
            await moved(conn, task, "skip", who, body.reason, locked_by=None, lock_expires_at=None,
                        completed_at=sa.func.now(), skip_reason=body.reason)
            await store.publish_skip(conn, task)
            summary = _summary(await existing(conn, task_id, who))
        ctx.relay.wake()
        return summary

    @router.post("/{task_id}/revert", responses=answer(examples.REVERTED))
    async def revert(task_id: TaskId, body: Reason, who: Annotator) -> dict:
        """Team leads only (§10.5): the task waits again in the public queue for any qualified
        annotator, its rework counted; the correction it undid and the reason are kept for whoever
        redoes it, who starts from the page as that correction left it. page.review-reverted tells
        the reader to unlearn the correction, and to read again the pages it re-read with it."""
        async with ctx.db.transaction() as conn:
            task = await existing(conn, task_id, who, lock=True)
            await moved(conn, task, "revert", who, body.reason, code="TASK_NOT_REVERTABLE", result=None,
                        completed_at=None, skip_reason=None, locked_by=None, locked_at=None, assigned_to=None,
                        released_by=None, released_at=None, rework_count=task.rework_count + 1, superseded_by=None)
            await store.remember_person(conn, who)
            await store.record_revert(conn, task, who.user_id, body.reason)
            await store.publish_revert(conn, task, who.user_id, body.reason)
            summary = _summary(await existing(conn, task_id, who))
        ctx.relay.wake()
        return summary

    return router
