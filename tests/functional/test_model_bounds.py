"""No endpoint can hang or flood gate-tui (issue 30, item 2): ``timeout_s`` bounds the whole
request, a reply is capped while it streams, one SSE line and any body are capped after
decompression, a redirect is named and not followed, a proxy comes only from the environment.

Each hostile server is a real socket server on loopback, in a thread, bounded in time.
"""

from __future__ import annotations

import asyncio
import gzip
import os
import socket
import threading
import time
from collections.abc import Callable

import pytest

pytest.importorskip("openai")

from gate_tui.llm import client as client_module  # noqa: E402
from gate_tui.llm.client import LiveReply, stream_chat  # noqa: E402
from gate_tui.llm.settings import ModelSettings  # noqa: E402
from gate_tui.llm.transport import MAX_BODY_BYTES, proxy_in_use  # noqa: E402
from tests.helpers.raw_http import SSE, chunk, raw_server  # noqa: E402


def stream(base_url: str, timeout_s: float = 20):
    settings = ModelSettings(
        base_url=base_url, model="m", timeout_s=timeout_s, api_key_env="BOUNDS_KEY"
    )
    started = time.monotonic()
    outcome = asyncio.run(
        stream_chat(settings, [{"role": "user", "content": "hi"}], None, LiveReply())
    )
    return outcome, time.monotonic() - started


def forever_chunks(conn: socket.socket, stop: threading.Event) -> None:
    conn.sendall(SSE + b"\r\n")
    while not stop.is_set():
        conn.sendall(chunk("tick "))
        time.sleep(0.2)


def trickled_status(conn: socket.socket, stop: threading.Event) -> None:
    for byte in b"HTTP/1.1 200 OK\r\n":
        if stop.is_set():
            return
        conn.sendall(bytes([byte]))
        time.sleep(1.5)


@pytest.mark.parametrize(
    "answer", [forever_chunks, trickled_status], ids=["chunk-every-0.2s", "status-1-byte-per-1.5s"]
)
def test_timeout_s_bounds_the_whole_request(answer: Callable) -> None:
    with raw_server(answer) as url:
        outcome, took = stream(url, timeout_s=3)
    assert outcome.failure is not None and outcome.failure.kind == "timeout"
    assert "within 3 s" in outcome.error and took < 20  # ended: 3 s, plus a loaded machine's slack
    if answer is forever_chunks:
        assert outcome.text.startswith("tick") and outcome.incomplete


def test_a_reply_past_the_parsers_limit_is_cut_while_streaming(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(client_module, "MAX_REPLY_CHARS", 50_000)

    def flood(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(SSE + b"\r\n")
        while not stop.is_set():
            conn.sendall(chunk("y" * 1000))

    with raw_server(flood) as url:
        outcome, _ = stream(url)
    assert outcome.failure.kind == "too_big" and outcome.incomplete
    assert 50_000 < len(outcome.text) <= 51_000 and "reading stopped" in outcome.error


def test_one_sse_line_without_a_newline_is_capped() -> None:
    def one_line(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(SSE + b"\r\n" + b"data: ")
        block = b"z" * (1 << 20)
        for _ in range(MAX_BODY_BYTES // len(block) + 8):
            if stop.is_set():
                return
            conn.sendall(block)

    with raw_server(one_line) as url:
        outcome, _ = stream(url)
    assert outcome.failure is not None and outcome.failure.kind == "too_big", outcome.error


def test_a_gzip_bomb_is_inflated_only_up_to_the_cap() -> None:
    bomb = gzip.compress(b"data: " + b"0" * (MAX_BODY_BYTES + (8 << 20)), compresslevel=9)
    assert len(bomb) < 200_000

    def gzipped(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(
            SSE
            + b"Content-Encoding: gzip\r\nContent-Length: "
            + str(len(bomb)).encode()
            + b"\r\n\r\n"
            + bomb
        )

    with raw_server(gzipped) as url:
        outcome, _ = stream(url)
    assert outcome.failure is not None and outcome.failure.kind == "too_big", outcome.error


def test_a_gzipped_error_body_bomb_is_capped_too() -> None:
    bomb = gzip.compress(b'{"error": {"message": "' + b"e" * (MAX_BODY_BYTES + (8 << 20)) + b'"}}')

    def gzipped(conn: socket.socket, stop: threading.Event) -> None:
        head = (
            b"HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\n"
            b"Content-Encoding: gzip\r\n"
        )
        conn.sendall(
            head
            + b"Content-Length: "
            + str(len(bomb)).encode()
            + b"\r\nConnection: close\r\n\r\n"
            + bomb
        )

    with raw_server(gzipped) as url:
        outcome, _ = stream(url)
    assert outcome.failure is not None and outcome.failure.kind in ("too_big", "server")
    assert len(outcome.error) < 400


def test_an_honest_gzipped_stream_still_reads() -> None:
    body = gzip.compress(
        chunk("hello ") + chunk("world") + b'data: {"id":"x","object":"chat.completion.chunk",'
        b'"created":0,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n'
        b"data: [DONE]\n\n"
    )

    def gzipped(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(
            SSE
            + b"Content-Encoding: gzip\r\nContent-Length: "
            + str(len(body)).encode()
            + b"\r\n\r\n"
            + body
        )

    with raw_server(gzipped) as url:
        outcome, _ = stream(url)
    assert outcome.failure is None and outcome.text == "hello world"


def test_a_redirect_is_named_and_not_followed() -> None:
    received: list[bytes] = []

    def elsewhere(conn: socket.socket, stop: threading.Event) -> None:
        received.append(b"request")

    with raw_server(elsewhere) as other:
        def redirect(conn: socket.socket, stop: threading.Event) -> None:
            target = other.replace("/v1", "/v1/chat/completions").encode()
            conn.sendall(
                b"HTTP/1.1 307 Temporary Redirect\r\nLocation: "
                + target
                + b"\r\nContent-Length: 0\r\n\r\n"
            )

        with raw_server(redirect) as url:
            outcome, _ = stream(url)
    assert outcome.failure.kind == "redirect" and "HTTP 307" in outcome.error
    assert other.split("//")[1].split("/")[0] in outcome.error and "not followed" in outcome.error
    assert received == []  # the conversation went nowhere else


def test_a_proxy_comes_only_from_the_environment_and_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in (
        "HTTPS_PROXY",
        "https_proxy",
        "HTTP_PROXY",
        "http_proxy",
        "ALL_PROXY",
        "all_proxy",
        "NO_PROXY",
        "no_proxy",
    ):
        monkeypatch.delenv(name, raising=False)
    assert proxy_in_use("https://api.example.com/v1") is None
    monkeypatch.setenv("HTTPS_PROXY", "http://user:pw@proxy.internal:3128")
    assert (
        proxy_in_use("https://api.example.com/v1") == "http://proxy.internal:3128"
    )  # no credentials
    monkeypatch.setenv("NO_PROXY", "api.example.com")
    assert proxy_in_use("https://api.example.com/v1") is None
    os.environ.pop("NO_PROXY", None)
