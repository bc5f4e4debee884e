"""The ops back office's part in collab (seed-001b §2.5), for team leads and admins: task batches
(runbook: backlog relief), skipping many waiting tasks at once or handing them to one annotator, each
task answering on its own so one that has moved on (taken, finished) stops none of the others; and
the annotators with their dispatch profiles (seed-001a §7.28) and statistics, computed from the
merchant's tasks of the last 30 days when asked rather than kept in a table a daily job refreshes."""

from dataclasses import asdict
from typing import Annotated

import sqlalchemy as sa
from fastapi import APIRouter, HTTPException, Path
from pydantic import BaseModel, ConfigDict, Field

from skuflow_collab import store
from skuflow_collab.api import examples
from skuflow_collab.domain.backlog import OpenTask, backlog
from skuflow_collab.domain.lifecycle import FINAL, IllegalMove, NotAllowed
from skuflow_collab.tables import human_tasks
from skuflow_platform.access import SUPERVISORS, caller
from skuflow_platform.auth import Principal
from skuflow_platform.openapi import answer
from skuflow_platform.runtime import ServiceContext

TaskIds = Annotated[list[Annotated[str, Field(pattern=r"^[\w-]{1,64}$")]], Field(min_length=1, max_length=500)]


class BatchSkip(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"task_ids": ["t-81f2", "t-81f3"], "reason": "backlog relief: machine reading accepted"}
    ]})

    task_ids: TaskIds
    reason: str = Field(min_length=1, max_length=2000, pattern=r"^[^\x00]+$")


class BatchReassign(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"task_ids": ["t-81f2"], "to": "user-lea"}]})

    task_ids: TaskIds
    to: str = Field(min_length=1, max_length=100, pattern=r"^[^\x00]+$", description="the annotator's user id")


AnnotatorId = Annotated[str, Path(min_length=1, max_length=100, pattern=r"^[^\x00/]+$")]


def routes(ctx: ServiceContext) -> APIRouter:
    router = APIRouter(prefix="/ops", tags=["ops"])
    Lead = caller(ctx.settings.jwt_secret, "team_lead", "admin")
    Supervisor = caller(ctx.settings.jwt_secret, *SUPERVISORS)

    @router.get("/backlog", responses=answer(examples.BACKLOG))
    async def review_backlog(who: Supervisor) -> dict:
        """The tasks not finished yet, by age (in the SLA's bands), by status and by job."""
        t = human_tasks.c
        async with ctx.db.transaction() as conn:
            rows = (await conn.execute(sa.select(t.job_id, t.status, (sa.extract(
                "epoch", sa.func.now() - t.created_at) / 60).label("minutes")).where(
                t.merchant_id == who.merchant_id, t.status.not_in(FINAL)))).all()
        return backlog([OpenTask(row.job_id, row.status, float(row.minutes)) for row in rows])

    @router.get("/annotators", responses=answer(examples.ANNOTATORS))
    async def list_annotators(who: Supervisor) -> dict:
        """Everyone who finished a task of the merchant in the last 30 days, by name beside their id, with
        the profile smart dispatch ranks them by (accuracy, mean seconds a task, open tasks)."""
        async with ctx.db.transaction() as conn:
            team = await store.team(conn, who.merchant_id)
            names = await store.names_of(conn, who.merchant_id, [profile.annotator for profile in team])
        return {"window_days": store.PROFILE_DAYS, "annotators": [
            {**asdict(profile), "name": names.get(profile.annotator)} for profile in team]}

    @router.get("/annotators/{annotator_id}/stats", responses={
        **answer(examples.STATS), 404: {"description": "no task of yours was theirs"}})
    async def annotator_stats(annotator_id: AnnotatorId, who: Lead) -> dict:
        """One annotator's last 30 days by task type: finished, skipped, reverted since, mean seconds."""
        async with ctx.db.transaction() as conn:
            stats = await store.annotator_stats(conn, annotator_id, who.merchant_id)
        if stats is None:
            raise HTTPException(404, f"annotator {annotator_id} has had no task of yours")
        return stats

    async def each(task_ids: list[str], who: Principal, trigger: str, reason: str | None, **values) -> dict:
        outcomes = {}
        for task_id in dict.fromkeys(task_ids):
            async with ctx.db.transaction() as conn:
                task = await store.find(conn, task_id, who.merchant_id, lock=True)
                if task is None:
                    outcomes[task_id] = {"refused": 404, "reason": "no such task"}
                    continue
                try:
                    status = await store.change(conn, task, trigger, who.roles, who.user_id, reason, **values)
                except (IllegalMove, NotAllowed) as exc:
                    outcomes[task_id] = {"refused": 409 if isinstance(exc, IllegalMove) else 403, "reason": str(exc)}
                    continue
                if trigger == "batch_skip":
                    await store.publish_skip(conn, task)
                outcomes[task_id] = {"status": status}
        ctx.relay.wake()
        return {"tasks": outcomes}

    @router.post("/tasks/batch-skip", responses=answer(examples.BATCH_SKIPPED))
    async def batch_skip(body: BatchSkip, who: Lead) -> dict:
        """Skip waiting tasks: each page keeps the machine's reading and its job goes on."""
        return await each(body.task_ids, who, "batch_skip", body.reason, completed_at=sa.func.now(),
                          skip_reason=body.reason)

    @router.post("/tasks/batch-reassign", responses={
        **answer(examples.BATCH_REASSIGNED), 404: {"description": "no one of the merchant's with that user id has "
                                                                  "opened the workbench"}})
    async def batch_reassign(body: BatchReassign, who: Lead) -> dict:
        """Dispatch waiting tasks to one annotator (their ``/tasks/next`` offers these first). Only to
        someone of the merchant's who has opened the workbench: a task dispatched to an id no one answers
        to is hidden from everyone else until its SLA runs out."""
        async with ctx.db.transaction() as conn:
            if body.to not in await store.names_of(conn, who.merchant_id, [body.to]):
                raise HTTPException(404, f"no annotator {body.to} of yours has opened the workbench")
        return await each(body.task_ids, who, "reassign", f"to {body.to}", assigned_to=body.to)

    return router
