"""A downstream system for tests: the receiver protocol of docs/importer.md, with faults.

Out of every ten import calls it fails three (HTTP 500, nothing stored) and times one out (the
page *is* stored, then the reply comes too late: the worst case for exactly-once). The rest are
confirmed or, every other time, only accepted (202), to be confirmed when asked at ``/status``.
The fault schedule is a fixed cycle, so a test run sees each case however few calls it makes;
a test may give its own (``reject`` answers 400: the content refused).
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

FAULTS = ("fail", "ok", "fail", "timeout", "ok", "fail", "ok", "ok", "ok", "ok")  # 30% fail, 10% time out


@dataclass
class Receiver:
    hang_seconds: float = 2.0
    faults: tuple[str, ...] = FAULTS
    skus: dict[str, dict] = field(default_factory=dict)  # delivery key -> the SKU, as first imported
    created: Counter = field(default_factory=Counter)  # delivery key -> times it was created
    pages: dict[str, bool] = field(default_factory=dict)  # page key -> confirmed yet
    calls: Counter = field(default_factory=Counter)  # fault -> calls that met it
    bodies: list[dict] = field(default_factory=list)  # every body received, as sent
    url: str = ""

    def app(self) -> FastAPI:
        app = FastAPI()
        answered = {"calls": 0, "ok": 0}

        @app.post("/imports")
        async def receive(request: Request) -> JSONResponse:
            fault = self.faults[answered["calls"] % len(self.faults)]
            answered["calls"] += 1
            self.calls[fault] += 1
            if fault == "fail":
                return JSONResponse({"error": "downstream unavailable"}, status_code=500)
            if fault == "reject":
                return JSONResponse({"error": "no such category"}, status_code=400)
            body = await request.json()
            self.bodies.append(body)
            for sku in body["skus"]:
                if sku["key"] not in self.skus:
                    self.skus[sku["key"]] = sku
                    self.created[sku["key"]] += 1
            if fault == "timeout":
                self.pages.setdefault(body["key"], True)
                await asyncio.sleep(self.hang_seconds)
                return JSONResponse({"confirmed": True})
            answered["ok"] += 1
            confirmed = answered["ok"] % 2 == 1
            self.pages.setdefault(body["key"], confirmed)
            return JSONResponse({"confirmed": confirmed}, status_code=200 if confirmed else 202)

        @app.get("/imports/status")
        async def status(key: str) -> JSONResponse:
            if key not in self.pages:
                return JSONResponse({"confirmed": False}, status_code=404)
            self.pages[key] = True  # the receiver's own processing has caught up by now
            return JSONResponse({"confirmed": True})

        return app

    def serve(self) -> uvicorn.Server:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(self.app(), host="127.0.0.1", port=port, log_level="warning"))
        threading.Thread(target=server.run, daemon=True).start()
        deadline = time.monotonic() + 10
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{port}/imports"
        return server
