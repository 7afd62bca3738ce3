"""A scripted OpenAI-compatible server on loopback: the chat-completions API with SSE.

A real HTTP server (``ThreadingHTTPServer`` in a thread) for what a small real model
cannot be made to do on cue. Each ``POST …/chat/completions`` takes the next
:class:`Step` of the script (the last one repeats) and answers as it says: a streamed
reply in chunks (with a delay per chunk, a ``finish_reason``, a cut), an HTTP error with
headers (429 ``Retry-After``, 500, 401, 404), a stream that stops mid-reply, or garbage
SSE lines. Every request body is kept in ``requests`` (for asserting what was sent,
e.g. the ``response_format``) with its ``Authorization`` header in ``auth``.

    with ScriptedServer([Step(text=REPLY)]) as server:
        base_url = server.base_url   # http://127.0.0.1:PORT/v1
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Step:
    """One scripted answer."""

    text: str = ""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    error: str = "scripted error"
    chunk: int = 8  # characters per SSE chunk
    delay: float = 0.0  # seconds before each chunk
    finish_reason: str | None = "stop"
    drop_after: int | None = None  # close the connection after this many chunks (no [DONE])
    garbage: bool = False  # send lines that are not chat-completion chunks
    usage: bool = True
    reject_response_format: str | None = None  # "json_schema" / "any": 500 when it is sent


class ScriptedServer:
    def __init__(self, script: list[Step], model: str = "scripted-model") -> None:
        self.script = list(script)
        self.model = model
        self.requests: list[dict[str, Any]] = []
        self.auth: list[str | None] = []
        self.first_chunk_at: list[
            float
        ] = []  # time.perf_counter() when each stream's first text left
        self._count = 0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def next_step(self, body: dict[str, Any], auth: str | None) -> Step:
        with self._lock:
            self.requests.append(body)
            self.auth.append(auth)
            step = self.script[min(self._count, len(self.script) - 1)]
            self._count += 1
            return step

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def echo_auth(step: Step, auth: str) -> Step:
    """A gateway that echoes the Authorization header: ``{AUTH}``, ``{AUTH_B64}`` (base64) and
    ``{AUTH_SPACED}`` (one space between characters) in a step's text or error are replaced."""
    import base64
    from dataclasses import replace

    forms = {"{AUTH}": auth, "{AUTH_B64}": base64.b64encode(auth.encode()).decode(),
             "{AUTH_SPACED}": " ".join(auth)}

    def fill(text: str) -> str:
        for name, value in forms.items():
            text = text.replace(name, value)
        return text

    return replace(step, text=fill(step.text), error=fill(step.error))


def _handler(owner: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:  # quiet tests
            pass

        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            if self.path.rstrip("/").endswith("/models"):
                self._json(
                    200, {"object": "list", "data": [{"id": owner.model, "object": "model"}]}
                )
            else:
                self._json(404, {"error": {"message": "not found"}})

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                body = {}
            step = owner.next_step(body, self.headers.get("Authorization"))
            step = echo_auth(step, self.headers.get("Authorization") or "")
            rf = body.get("response_format")
            if (
                step.reject_response_format
                and rf
                and (
                    step.reject_response_format == "any"
                    or rf.get("type") == step.reject_response_format
                )
            ):
                self._json(
                    500,
                    {
                        "error": {
                            "message": "response_format: Input should be 'text' or 'json_object'"
                        }
                    },
                )
                return
            if step.status != 200:
                self._json(
                    step.status,
                    {"error": {"message": step.error, "type": "scripted"}},
                    step.headers,
                )
                return
            self._stream(step, body)

        def _json(
            self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
        ) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def _stream(self, step: Step, body: dict[str, Any]) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            try:
                if step.garbage:
                    self._send(b"data: {this is not json\n\n")
                    self._send(b"data: [DONE]\n\n")
                    return
                pieces = [
                    step.text[i : i + step.chunk] for i in range(0, len(step.text), step.chunk)
                ]
                for number, piece in enumerate(pieces):
                    if step.drop_after is not None and number >= step.drop_after:
                        return  # the connection closes with no finish_reason and no [DONE]
                    if step.delay:
                        time.sleep(step.delay)
                    self._chunk(
                        {"role": "assistant", "content": piece}
                        if number == 0
                        else {"content": piece}
                    )
                    if number == 0:
                        owner.first_chunk_at.append(time.perf_counter())
                self._chunk({}, step.finish_reason, step.usage and len(pieces))
                self._send(b"data: [DONE]\n\n")
            except (BrokenPipeError, ConnectionResetError):
                return  # the client went away (cancelled): nothing to do

        def _chunk(
            self, delta: dict[str, Any], finish: str | None = None, usage: int | bool | None = None
        ) -> None:
            chunk: dict[str, Any] = {
                "id": "chatcmpl-scripted",
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": owner.model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
            if usage:
                chunk["usage"] = {
                    "prompt_tokens": 100,
                    "completion_tokens": int(usage),
                    "total_tokens": 100 + int(usage),
                }
            self._send(b"data: " + json.dumps(chunk).encode() + b"\n\n")

        def _send(self, data: bytes) -> None:
            self.wfile.write(data)
            self.wfile.flush()

    return Handler
