"""A local stand-in for the providers: one HTTP server speaking Gemini ``generateContent`` and OpenAI
``chat.completions`` (and their model look-ups), scripted per model. Tests drive the real SDKs against it.
"""

from __future__ import annotations

import json
import re
import threading
from collections import defaultdict, deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

GEMINI_GENERATE = re.compile(r"^/[^/]+/models/(?P<model>[^/:]+):generateContent$")
MODEL_LOOKUP = re.compile(r"^/[^/]+/models/(?P<model>[^/:]+)$")


@dataclass(frozen=True)
class Reply:
    """One scripted answer: the text, or an HTTP error ``status``; ``delay`` seconds before answering."""

    text: str = "{}"
    status: int = 200
    delay: float = 0.0
    input_tokens: int = 1000
    output_tokens: int = 200


@dataclass(frozen=True)
class SeenRequest:
    protocol: str
    model: str
    body: dict[str, Any]


class FakeProviderServer:
    def __init__(self) -> None:
        self._scripts: dict[str, deque[Reply]] = defaultdict(deque)
        self._defaults: dict[str, Reply] = {}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self.requests: list[SeenRequest] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def openai_base_url(self) -> str:
        return f"{self.base_url}/v1"

    def __enter__(self) -> FakeProviderServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def script(self, model: str, *replies: Reply) -> None:
        """Answer the next requests for ``model`` with ``replies``, in order."""
        with self._lock:
            self._scripts[model].extend(replies)

    def default(self, model: str, reply: Reply) -> None:
        """Answer for ``model`` once its script is used up."""
        with self._lock:
            self._defaults[model] = reply

    def reset(self) -> None:
        with self._lock:
            self._scripts.clear()
            self._defaults.clear()
            self.requests.clear()

    def seen(self, model: str) -> list[SeenRequest]:
        with self._lock:
            return [request for request in self.requests if request.model == model]

    def _next_reply(self, protocol: str, model: str, body: dict[str, Any]) -> Reply | None:
        with self._lock:
            self.requests.append(SeenRequest(protocol, model, body))
            script = self._scripts[model]
            return script.popleft() if script else self._defaults.get(model)

    def _knows(self, model: str) -> bool:
        with self._lock:
            return model in self._defaults or bool(self._scripts.get(model))

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                """Quiet: tests read ``requests`` instead."""

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                gemini = GEMINI_GENERATE.match(self.path)
                if gemini:
                    self._answer("gemini", gemini["model"], body)
                elif self.path.endswith("/chat/completions"):
                    self._answer("openai", body.get("model", ""), body)
                else:
                    self._send(404, {"error": {"code": 404, "message": f"no route {self.path}"}})

            def do_GET(self) -> None:
                lookup = MODEL_LOOKUP.match(self.path)
                if lookup and server._knows(lookup["model"]):
                    model = lookup["model"]
                    self._send(200, {"name": f"models/{model}", "id": model, "object": "model", "created": 0,
                                     "owned_by": "fake"})
                else:
                    self._send(404, {"error": {"code": 404, "message": "model not found", "status": "NOT_FOUND"}})

            def _answer(self, protocol: str, model: str, body: dict[str, Any]) -> None:
                reply = server._next_reply(protocol, model, body)
                if reply is None:
                    self._send(404, {"error": {"code": 404, "message": f"nothing scripted for {model}"}})
                    return
                if reply.delay and server._stopping.wait(reply.delay):
                    return
                if reply.status != 200:
                    self._send(reply.status, {"error": {"code": reply.status, "message": "scripted failure",
                                                        "status": "UNAVAILABLE", "type": "server_error"}})
                elif protocol == "gemini":
                    self._send(200, gemini_answer(model, reply))
                else:
                    self._send(200, openai_answer(model, reply))

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload, ensure_ascii=False).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (its timeout): nothing to deliver

        return Handler


def gemini_answer(model: str, reply: Reply) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": [{"text": reply.text}]}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": reply.input_tokens, "candidatesTokenCount": reply.output_tokens,
                              "totalTokenCount": reply.input_tokens + reply.output_tokens},
            "modelVersion": model}


def openai_answer(model: str, reply: Reply) -> dict[str, Any]:
    return {"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": reply.input_tokens, "completion_tokens": reply.output_tokens,
                      "total_tokens": reply.input_tokens + reply.output_tokens}}
