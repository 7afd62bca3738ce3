"""What an endpoint sent, named truly (issue 30, item 4; Esc and stored-once of item 2):

* a reply only in ``reasoning_content`` or ``tool_calls`` (or with no text at all) is named
  for what came, not "no reply";
* a message that is not UTF-8 from the user's own shell is blamed on the local input and
  nothing is sent;
* a string ``usage.total_tokens`` never prints a pydantic warning; no library warning reaches
  the user;
* ``LiveReply.cancel`` (the editor's Esc) stops a stream at once, from another thread;
* a model's reply is stored once in the journal, applied or refused.

Every endpoint is a real server on 127.0.0.1, in a thread, bounded in time.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("openai")

from gate_tui.llm.client import LiveReply, stream_chat  # noqa: E402
from gate_tui.llm.settings import ModelSettings  # noqa: E402
from tests.conftest import CONFIGS, reply  # noqa: E402
from tests.helpers.raw_http import SSE, chunk, raw_server  # noqa: E402
from tests.helpers.scripted_openai import ScriptedServer, Step  # noqa: E402

CONFIG = CONFIGS / "ml_project_intake.yaml"
KEY = "sk-replies-SECRET-24680"


def sse(delta: dict, finish: str | None = None, usage: dict | None = None) -> bytes:
    body: dict = {
        "id": "x",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    if usage is not None:
        body["usage"] = usage
    return b"data: " + json.dumps(body).encode() + b"\n\n"


def answering(*events: bytes):
    def answer(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(SSE + b"\r\n" + b"".join(events) + b"data: [DONE]\n\n")

    return answer


def run(base_url: str, live: LiveReply | None = None, timeout_s: float = 20):
    settings = ModelSettings(
        base_url=base_url, model="m", timeout_s=timeout_s, api_key_env="REPLIES_KEY"
    )
    return asyncio.run(
        stream_chat(settings, [{"role": "user", "content": "hi"}], None, live or LiveReply())
    )


def ask(base_url: str, state: Path, message: str | bytes) -> subprocess.CompletedProcess[bytes]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("OPENAI_", "GATE_TUI_MODEL", "PYTHONWARN"))
    }
    env.update(OPENAI_API_KEY=KEY, XDG_CONFIG_HOME=str(state.parent / "xdg"), LANG="C.UTF-8")
    command = [
        sys.executable,
        "-m",
        "gate_tui",
        "ask",
        str(CONFIG),
        "--state",
        str(state),
        "--model",
        "m",
        "--base-url",
        base_url,
        message,
    ]
    return subprocess.run(command, capture_output=True, env=env, timeout=120)  # type: ignore


def journal(state: Path) -> list[dict]:
    path = state.with_name(state.name + ".journal.jsonl")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# --- replies with no text ---------------------------------------------------------------


def test_a_reasoning_only_reply_says_the_model_only_reasoned() -> None:
    thinking = [
        sse({"role": "assistant", "reasoning_content": "Let me think " * 20}) for _ in range(3)
    ]
    with raw_server(answering(*thinking, sse({}, "length"))) as base_url:
        outcome = run(base_url)
    assert outcome.failure is not None and outcome.failure.kind == "reasoning_only"
    assert (
        "only reasoning" in outcome.error
        and "reasoning_content" in outcome.error
        and "length" in outcome.error
    )
    assert outcome.text == "" and "Let me think" not in outcome.error


def test_a_tool_call_only_reply_names_the_tool() -> None:
    call = {
        "index": 0,
        "id": "c1",
        "type": "function",
        "function": {"name": "lookup_gate", "arguments": ""},
    }
    more = {"index": 0, "function": {"arguments": '{"q": 1}'}}
    with raw_server(
        answering(
            sse({"role": "assistant", "tool_calls": [call]}),
            sse({"tool_calls": [more]}),
            sse({}, "tool_calls"),
        )
    ) as base_url:
        outcome = run(base_url)
    assert outcome.failure is not None and outcome.failure.kind == "tool_calls_only"
    assert (
        "1 tool call" in outcome.error
        and "'lookup_gate'" in outcome.error
        and "no reply text" in outcome.error
    )


def test_a_finished_reply_with_no_text_is_named_empty_not_unreachable() -> None:
    with raw_server(answering(sse({"role": "assistant", "content": ""}, "stop"))) as base_url:
        outcome = run(base_url)
    assert outcome.failure is not None and outcome.failure.kind == "empty"
    assert "without any reply text" in outcome.error and "cannot reach" not in outcome.error


def test_ask_prints_the_reasoning_only_message_and_journals_it(tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    events = (sse({"role": "assistant", "reasoning_content": "hmm"}), sse({}, "stop"))
    with raw_server(answering(*events)) as base_url:
        done = ask(base_url, state, "the data is ready")
    err = done.stderr.decode()
    assert done.returncode == 3 and "only reasoning" in err and "no reply\n" not in err, err
    call = next(r for r in journal(state) if r["kind"] == "model_call")
    assert call["outcome"] == "error" and "only reasoning" in call["error"]


# --- the user's own text ----------------------------------------------------------------


def test_a_non_utf8_message_from_the_shell_is_blamed_locally_and_nothing_is_sent(
    tmp_path: Path,
) -> None:
    with ScriptedServer([Step(text=reply("ml_good.md"))]) as server:
        done = ask(server.base_url, tmp_path / "s.json", b"caf\xe9 is ready")
    err = done.stderr.decode()
    assert done.returncode == 3, err
    assert "your message is not valid UTF-8" in err and "0xe9" in err and "your shell" in err
    assert "127.0.0.1" not in err and server.requests == []  # the endpoint is not blamed, nor asked


def test_stream_chat_refuses_text_it_cannot_encode_without_asking_the_endpoint() -> None:
    with ScriptedServer([Step(text="x")]) as server:
        settings = ModelSettings(
            base_url=server.base_url, model="m", timeout_s=10, api_key_env="REPLIES_KEY"
        )
        outcome = asyncio.run(
            stream_chat(settings, [{"role": "user", "content": "a\udcffb"}], None)
        )
    assert outcome.failure is not None and outcome.failure.kind == "local_input"
    assert "0xff" in outcome.error and server.requests == []


# --- usage and library warnings -----------------------------------------------------------


def test_a_string_total_tokens_is_read_without_any_warning() -> None:
    usage = {"prompt_tokens": 5, "completion_tokens": "7", "total_tokens": "12"}
    events = (sse({"role": "assistant", "content": "{}"}), sse({}, "stop", usage))
    with raw_server(answering(*events)) as base_url, warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        outcome = run(base_url)
    assert outcome.failure is None and outcome.usage == {
        "prompt_tokens": 5,
        "completion_tokens": 7,
        "total_tokens": 12,
    }


def test_ask_prints_no_library_warning_for_a_string_usage(tmp_path: Path) -> None:
    usage = {"prompt_tokens": "x", "completion_tokens": [1], "total_tokens": "12"}
    text = reply("ml_good.md")
    events = [
        sse({"role": "assistant", "content": text[i : i + 400]}) for i in range(0, len(text), 400)
    ]
    with raw_server(answering(*events, sse({}, "stop", usage))) as base_url:
        done = ask(base_url, tmp_path / "s.json", "ready")
    err = done.stderr.decode()
    assert done.returncode == 0, err
    assert "Warning" not in err and "pydantic" not in err.lower() and ".py:" not in err


# --- Esc ---------------------------------------------------------------------------------


def endless(conn: socket.socket, stop: threading.Event) -> None:
    conn.sendall(SSE + b"\r\n" + chunk("{"))
    while not stop.is_set():
        time.sleep(0.2)
        conn.sendall(chunk('"a": 1, '))


def silent_after_first(conn: socket.socket, stop: threading.Event) -> None:
    conn.sendall(SSE + b"\r\n" + chunk("{"))
    stop.wait(30)


@pytest.mark.parametrize(
    "answer", [endless, silent_after_first], ids=["chunk-every-0.2s", "silent"]
)
def test_cancel_from_another_thread_stops_the_stream_at_once(answer) -> None:
    live = LiveReply()

    def press_esc() -> None:
        deadline = time.monotonic() + 15
        while live.chars == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.5)
        live.pressed = time.monotonic()  # type: ignore[attr-defined]
        live.cancel()

    with raw_server(answer) as base_url:
        threading.Thread(target=press_esc, daemon=True).start()
        outcome = run(base_url, live, timeout_s=60)
        stopped = time.monotonic() - live.pressed  # type: ignore[attr-defined]
    assert outcome.cancelled and outcome.incomplete and outcome.failure is None
    assert outcome.text.startswith("{") and stopped < 3.0  # at once, not at timeout_s (60 s)


def test_cancel_before_the_stream_starts_sends_nothing() -> None:
    live = LiveReply()
    live.cancel()
    with ScriptedServer([Step(text="x")]) as server:
        outcome = run(server.base_url, live)
    assert outcome.cancelled and outcome.text == "" and server.requests == []


# --- stored once ---------------------------------------------------------------------------


def test_a_refused_reply_is_stored_once_in_the_journal_and_shown_once_in_the_report(
    tmp_path: Path,
) -> None:
    state = tmp_path / "s.json"
    marker = "UNIQUE-MARKER-"
    big = (
        "{" + "".join(f'"{marker}{i}": ' for i in range(3)) + ("x" * 200_000)
    )  # not valid: refused
    with ScriptedServer([Step(text=big, chunk=4096)]) as server:
        done = ask(server.base_url, state, "please")
    assert done.returncode == 2, done.stderr.decode()
    raw = state.with_name(state.name + ".journal.jsonl").read_text(encoding="utf-8")
    assert raw.count(marker + "0") == 1 and len(raw) < len(big) + 50_000
    records = journal(state)
    call = next(r for r in records if r["kind"] == "model_call")
    rejected = next(r for r in records if r["kind"] == "rejected")
    assert (
        call["reply"] == big and rejected["payload"] is None and rejected["payload_in_call"] is True
    )
    assert rejected["call"] == call["seq"] and rejected["errors"]
    report = subprocess.run(
        [sys.executable, "-m", "gate_tui", "report", str(state)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert report.returncode == 0, report.stderr
    assert report.stdout.count(marker + "0") == 1 and f"under call {call['seq']}" in report.stdout


def test_an_applied_reply_is_stored_once_too(tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    with ScriptedServer([Step(text=reply("ml_good.md"))]) as server:
        done = ask(server.base_url, state, "ready")
    assert done.returncode == 0, done.stderr.decode()
    records = journal(state)
    call = next(r for r in records if r["kind"] == "model_call")
    applied = next(r for r in records if r["kind"] == "reply")
    assert (
        call["reply"] == reply("ml_good.md")
        and applied["payload"] is None
        and applied["payload_in_call"]
    )
