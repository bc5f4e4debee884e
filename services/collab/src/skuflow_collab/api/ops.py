"""Task batches for the ops back office (seed-001b §2.5; runbook: backlog relief): skip many waiting
tasks at once, or hand them to one annotator. Team leads and admins only; each task answers on its
own, so one that has moved on (taken, finished) stops none of the others."""

from typing import Annotated

import sqlalchemy as sa
from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from skuflow_collab import store
from skuflow_collab.domain.lifecycle import IllegalMove, NotAllowed
from skuflow_platform.access import caller
from skuflow_platform.auth import Principal
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
    to: str = Field(min_length=1, max_length=100, description="the annotator's user id")


def routes(ctx: ServiceContext) -> APIRouter:
    router = APIRouter(prefix="/ops/tasks", tags=["ops"])
    Lead = caller(ctx.settings.jwt_secret, "team_lead", "admin")

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

    @router.post("/batch-skip")
    async def batch_skip(body: BatchSkip, who: Lead) -> dict:
        """Skip waiting tasks: each page keeps the machine's reading and its job goes on."""
        return await each(body.task_ids, who, "batch_skip", body.reason, completed_at=sa.func.now(),
                          skip_reason=body.reason)

    @router.post("/batch-reassign")
    async def batch_reassign(body: BatchReassign, who: Lead) -> dict:
        """Dispatch waiting tasks to one annotator (their ``/tasks/next`` offers these first)."""
        return await each(body.task_ids, who, "reassign", f"to {body.to}", assigned_to=body.to)

    return router
