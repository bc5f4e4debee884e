"""Collab's REST API under /api/v1: the annotators' tasks, and the workbench that uses them."""

from fastapi import APIRouter

from skuflow_collab.api import tasks
from skuflow_platform.runtime import ServiceContext


def routes(ctx: ServiceContext) -> APIRouter:
    router = APIRouter(prefix="/api/v1")
    router.include_router(tasks.routes(ctx))
    return router
