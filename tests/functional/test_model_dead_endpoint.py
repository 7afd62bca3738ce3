"""A dead endpoint is named as such (issue 27): a stream that ends with no chunk, a server
that closes mid-reply and a server process that exits are three clear messages and three
journal outcomes, each distinct from "cannot reach" (nothing listening).

The dying servers are real processes on loopback: each reads the request, then does what a
crashed llama.cpp does — exits before answering, or after sending its status line.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("openai")

from gate_tui.llm.client import LiveReply, stream_chat  # noqa: E402
from gate_tui.llm.settings import ModelSettings  # noqa: E402
from tests.conftest import CONFIGS, reply  # noqa: E402
from tests.helpers.scripted_openai import ScriptedServer, Step  # noqa: E402

# A one-request HTTP server in its own process: reads the request, sends ANSWER, then either
# exits at once (os._exit: the process dies mid-connection) or closes the socket cleanly.
SERVER = r"""
import os, socket, sys
answer, how = sys.argv[1].encode().decode("unicode_escape").encode("latin-1"), sys.argv[2]
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(1)
print(listener.getsockname()[1], flush=True)
conn, _ = listener.accept()
data = b""
while b"\r\n\r\n" not in data:
    data += conn.recv(65536)
head, _, body = data.partition(b"\r\n\r\n")
length = int(
    [l.split(b":")[1] for l in head.split(b"\r\n") if l.lower().startswith(b"content-length")][0]
)
while len(body) < length:
    body += conn.recv(65536)
conn.sendall(answer)
if how == "exit":
    os._exit(3)
conn.shutdown(socket.SHUT_RDWR)
conn.close()
"""
SSE_HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
CHUNKED = SSE_HEAD + "Transfer-Encoding: chunked\r\n\r\n"
CLOSE = SSE_HEAD + "Connection: close\r\n\r\n"


@contextmanager
def dying_server(answer: str, how: str) -> Iterator[str]:
    process = subprocess.Popen(
        [sys.executable, "-c", SERVER, answer.encode("unicode_escape").decode(), how],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        port = int(process.stdout.readline())
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        process.kill()
        process.wait(10)


def stream(base_url: str):
    settings = ModelSettings(
        base_url=base_url, model="m", timeout_s=20, api_key_env="DEAD_TEST_KEY"
    )
    os.environ["DEAD_TEST_KEY"] = "sk-dead"
    try:
        return asyncio.run(
            stream_chat(settings, [{"role": "user", "content": "hi"}], None, LiveReply())
        )
    finally:
        del os.environ["DEAD_TEST_KEY"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_server_process_that_exits_before_answering_is_not_cannot_reach() -> None:
    with dying_server("", "exit") as url:
        outcome = stream(url)
    assert outcome.failure.kind == "server_gone" and outcome.text == ""
    assert "closed it without answering" in outcome.error and "exited or crashed" in outcome.error
    assert "cannot reach" not in outcome.error


def test_a_server_process_that_exits_after_its_status_line_is_named_as_gone() -> None:
    """The crash the issue saw: llama.cpp sent its headers, then died generating."""
    with dying_server(CHUNKED, "exit") as url:
        outcome = stream(url)
    assert outcome.failure.kind == "server_gone", outcome.error
    assert "cannot reach" not in outcome.error and "exited or crashed" in outcome.error


@pytest.mark.parametrize("body", ["", "data: [DONE]\n\n"], ids=["nothing", "only-done"])
def test_a_stream_that_ends_with_no_chunk(body: str) -> None:
    with dying_server(CLOSE + body, "close") as url:
        outcome = stream(url)
    assert outcome.failure.kind == "no_reply" and outcome.incomplete
    assert "without sending a single chunk" in outcome.error and "cannot reach" not in outcome.error


def test_a_server_that_closes_mid_reply() -> None:
    with ScriptedServer([Step(text="x" * 200, chunk=20, drop_after=3)]) as server:
        outcome = stream(server.base_url)
    assert outcome.failure.kind == "dropped" and outcome.text == "x" * 60
    assert "closed the connection mid-reply after 60 characters" in outcome.error


def test_nothing_listening_is_cannot_reach() -> None:
    outcome = stream(f"http://127.0.0.1:{free_port()}/v1")
    assert outcome.failure.kind == "connect" and outcome.error.startswith("cannot reach")


def ask(base_url: str, state: Path) -> subprocess.CompletedProcess[str]:
    state.parent.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "GATE_TUI_MODEL"))}
    env.update(OPENAI_API_KEY="sk-dead", XDG_CONFIG_HOME=str(state.parent / "xdg"))
    command = [
        sys.executable,
        "-m",
        "gate_tui",
        "ask",
        str(CONFIGS / "ml_project_intake.yaml"),
        "--state",
        str(state),
        "--model",
        "m",
        "--base-url",
        base_url,
        "--retries",
        "0",
        "go",
    ]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)


def outcome_of(state: Path) -> dict:
    lines = state.with_name(state.name + ".journal.jsonl").read_text(encoding="utf-8").splitlines()
    return next(r for r in map(json.loads, lines) if r["kind"] == "model_call")


def test_ask_says_and_journals_three_different_deaths(tmp_path: Path) -> None:
    seen = {}
    with dying_server(CHUNKED, "exit") as url:
        done = ask(url, tmp_path / "gone" / "s.json")
    seen["server_gone"] = (done, outcome_of(tmp_path / "gone" / "s.json"))
    with dying_server(CLOSE, "close") as url:
        done = ask(url, tmp_path / "empty" / "s.json")
    seen["no_reply"] = (done, outcome_of(tmp_path / "empty" / "s.json"))
    with ScriptedServer([Step(text=reply("ml_good.md"), chunk=50, drop_after=4)]) as server:
        done = ask(server.base_url, tmp_path / "dropped" / "s.json")
    seen["dropped"] = (done, outcome_of(tmp_path / "dropped" / "s.json"))
    messages = set()
    for outcome, (done, record) in seen.items():
        assert record["outcome"] == outcome, (outcome, record)
        assert "Traceback" not in done.stderr and "cannot reach" not in done.stderr
        assert record["error"] in done.stderr  # the same words on screen and in the journal
        messages.add(
            record["error"].split(" ", 1)[1].split(":", 1)[0]
        )  # the words after the endpoint
    assert len(messages) == 3
    assert seen["dropped"][1]["reply"] == reply("ml_good.md")[:200]  # what came is kept
