"""A raw HTTP server on loopback for hostile endpoints: one connection at a time, and the
test writes whatever bytes it likes (a trickled status line, an endless stream, a gzip bomb).

    with raw_server(lambda conn, stop: conn.sendall(SSE + b"\r\n" + chunk("hi"))) as base_url:
        ...   # http://127.0.0.1:PORT/v1

The server thread stops within 30 s whatever happens; ``stop`` is set when the test leaves.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

SSE = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"


def chunk(text: str) -> bytes:
    body = {
        "id": "x",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}],
    }
    return b"data: " + json.dumps(body).encode() + b"\n\n"


@contextmanager
def raw_server(answer: Callable[[socket.socket, threading.Event], None]) -> Iterator[str]:
    """One connection at a time; ``answer`` writes whatever it likes; stops within 30 s."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    listener.settimeout(0.2)
    stop = threading.Event()
    hits: list[int] = []

    def serve() -> None:
        deadline = time.monotonic() + 30
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            hits.append(1)
            conn.settimeout(5)
            try:
                data = b""
                while b"\r\n\r\n" not in data:
                    data += conn.recv(65536)
                answer(conn, stop)
            except OSError:
                pass
            finally:
                conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    finally:
        stop.set()
        thread.join(10)
        listener.close()
