"""Collab's HTTP surface: the task API under /api/v1 and the workbench that uses it under /workbench."""

from fastapi import APIRouter

from skuflow_collab.api import ops, tasks, workbench
from skuflow_platform.runtime import ServiceContext


def routes(ctx: ServiceContext) -> APIRouter:
    router = APIRouter()
    api = APIRouter(prefix="/api/v1")
    api.include_router(tasks.routes(ctx))
    api.include_router(ops.routes(ctx))
    router.include_router(api)
    router.include_router(workbench.routes())
    return router
