"""Structured JSON logs carrying job_id / page / event_id from the message or request being handled,
and the trace_id / span_id of the span current when a line is written (a consumer's, a request's, a
stage's), so a line of an event's handling is joined to its trace.

The runtime sets the job's fields around every handler (the consumer for an event, ``request_log_context``
for a request whose path names a job) and starts their spans, so no call site has to pass them.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import UTC, datetime

from fastapi import Request

from skuflow_platform.tracing import log_fields

_context: contextvars.ContextVar[dict[str, object]] = contextvars.ContextVar("log_context")


@contextlib.contextmanager
def log_context(**fields: object) -> Iterator[None]:
    """Add fields (job_id, page, event_id, …) to every log line written inside the block."""
    token = _context.set({**_context.get({}), **{k: v for k, v in fields.items() if v is not None}})
    try:
        yield
    finally:
        _context.reset(token)


async def request_log_context(request: Request) -> AsyncIterator[None]:
    """A FastAPI dependency of every route: the job and page its path names, if any."""
    page = request.path_params.get("page")
    with log_context(job_id=request.path_params.get("job_id"), page=int(page) if page and page.isdigit() else page):
        yield


class JsonFormatter(logging.Formatter):
    def __init__(self, service: str) -> None:
        super().__init__()
        self.service = service

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "service": self.service,
            "logger": record.name,
            "msg": record.getMessage(),
            **_context.get({}),
            **log_fields(),
        }
        extra = getattr(record, "fields", None)
        if isinstance(extra, dict):
            line.update(extra)
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class RepeatLimiter(logging.Filter):
    """One line per (logger, level, message) per window: an outage must not write 40,000 errors.

    The first occurrence passes; repeats inside ``window_seconds`` are counted, and the next line
    that passes after the window says how many were held back (``repeated``).
    """

    def __init__(self, window_seconds: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.window, self.clock = window_seconds, clock
        self._seen: dict[tuple[str, int, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        key = (record.name, record.levelno, str(record.msg))
        now = self.clock()
        first, held = self._seen.get(key, (None, 0))
        if first is not None and now - first < self.window:
            self._seen[key] = (first, held + 1)
            return False
        self._seen[key] = (now, 0)
        if held:
            record.fields = {**(getattr(record, "fields", None) or {}), "repeated": held}
        if len(self._seen) > 10_000:  # messages are a fixed vocabulary; this only bounds a leak
            self._seen.clear()
        return True


def configure_logging(service: str, level: str = "INFO") -> None:
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(JsonFormatter(service))
    handler.addFilter(RepeatLimiter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for noisy in ("aiokafka", "kafka", "uvicorn.access"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    # FastStream writes coloured text through a handler of its own: through ours instead
    faststream = logging.getLogger("faststream")
    faststream.handlers.clear()
    faststream.propagate = True
