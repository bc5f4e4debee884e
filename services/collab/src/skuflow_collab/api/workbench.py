"""The annotator workbench (a React app built by `make setup` into ``static/workbench``), served from
``/workbench/``, and the one setting it needs: where the gateway's login is."""

from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse
from pydantic_settings import BaseSettings, SettingsConfigDict

BUILT = Path(__file__).resolve().parent.parent / "static" / "workbench"


class WorkbenchSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SKUFLOW_", extra="ignore")
    gateway_url: str = "http://127.0.0.1:8000"  # as the annotator's browser reaches it


def routes() -> APIRouter:
    router = APIRouter(prefix="/workbench", include_in_schema=False)
    gateway = WorkbenchSettings().gateway_url

    @router.get("/config.json")
    async def config() -> dict:
        return {"gateway_url": gateway}

    @router.get("/")
    @router.get("/{path:path}")
    async def asset(path: str = "") -> FileResponse:
        if not (BUILT / "index.html").exists():
            raise HTTPException(503, "the workbench is not built: run `make setup`")
        wanted = (BUILT / path).resolve()
        if path and wanted.is_file() and wanted.is_relative_to(BUILT):
            return FileResponse(wanted, headers={"Cache-Control": "public, max-age=31536000, immutable"}
                                if path.startswith("assets/") else None)
        return FileResponse(BUILT / "index.html", headers={"Cache-Control": "no-cache"})

    return router
