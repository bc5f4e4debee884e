"""The gateway's public REST API under /api/v1, one module per resource."""

from fastapi import APIRouter

from skuflow_gateway.api import accounts, control, files, jobs, ops, pages, profiles, progress, traces, users
from skuflow_platform.runtime import ServiceContext


def routes(ctx: ServiceContext) -> APIRouter:
    router = APIRouter(prefix="/api/v1")
    router.include_router(accounts.routes(ctx))
    router.include_router(users.routes(ctx))
    router.include_router(jobs.routes(ctx))
    router.include_router(progress.routes(ctx))
    router.include_router(pages.routes(ctx))
    router.include_router(traces.routes(ctx))
    router.include_router(control.routes(ctx))
    router.include_router(files.routes(ctx))
    router.include_router(profiles.routes(ctx))
    router.include_router(ops.routes(ctx))
    return router
