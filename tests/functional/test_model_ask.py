"""``gate-tui ask`` end to end: the real command against the scripted server on loopback.

Asserts on what the user sees (stdout, stderr, exit status) and on the journal: each call
is a ``model_call`` record, an applied reply carries the call's seq, the conversation
continues across runs, and the system's decision wins over the model's claim.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("openai")

from gate_tui.config.loading import load_config  # noqa: E402
from gate_tui.llm.conversation import turns_of  # noqa: E402
from gate_tui.session.opening import open_session  # noqa: E402
from tests.conftest import CONFIGS, reply  # noqa: E402
from tests.helpers.scripted_openai import ScriptedServer, Step  # noqa: E402

CONFIG = CONFIGS / "ml_project_intake.yaml"
KEY = "sk-ask-SECRET-987654321"


def gate_tui_ask(
    server: ScriptedServer, state: Path, message: str, *extra: str
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "GATE_TUI_MODEL"))}
    env.update(OPENAI_API_KEY=KEY, XDG_CONFIG_HOME=str(state.parent / "xdg"))
    command = [
        sys.executable,
        "-m",
        "gate_tui",
        "ask",
        str(CONFIG),
        "--state",
        str(state),
        "--model",
        "scripted",
        "--base-url",
        server.base_url,
        *extra,
        message,
    ]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)


def journal(state: Path) -> list[dict]:
    path = state.with_name(state.name + ".journal.jsonl")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_lying_pass_is_overruled_applied_and_journaled_with_its_call(tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    with ScriptedServer([Step(text=reply("ml_lying_pass.md"))]) as server:
        done = gate_tui_ask(server, state, "The labelled data is in the warehouse")
    assert done.returncode == 1, done.stderr
    assert (
        "NO PASS" in done.stdout
        and "assistant claimed pass=true; system decided NO PASS" in done.stdout
    )
    records = journal(state)
    call = next(r for r in records if r["kind"] == "model_call")
    applied = next(r for r in records if r["kind"] == "reply")
    assert applied["call"] == call["seq"] and applied["actor"] == "assistant"
    assert (
        call["model"] == "scripted"
        and call["endpoint"] == server.base_url.split("//")[1].split("/")[0]
    )
    assert call["message"] == "The labelled data is in the warehouse" and call["reply"] == reply(
        "ml_lying_pass.md"
    )
    assert (
        call["finish_reason"] == "stop"
        and call["usage"]["completion_tokens"] > 0
        and call["outcome"] == "ok"
    )
    assert (
        call["chars"]["system"] > 1000
        and call["ttft_s"] is not None
        and call["total_s"] >= call["ttft_s"]
    )
    assert (
        KEY not in state.with_name(state.name + ".journal.jsonl").read_text()
        and KEY not in state.read_text()
    )


def test_a_fenced_reply_with_prose_passes_and_the_conversation_continues(tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    with ScriptedServer(
        [Step(text=reply("ml_lying_pass.md")), Step(text=reply("ml_good.md"))]
    ) as server:
        first = gate_tui_ask(server, state, "first message")
        second = gate_tui_ask(server, state, "second message", "--format", "json")
    assert (first.returncode, second.returncode) == (1, 0), second.stderr
    assert json.loads(second.stdout)["decision"]["pass"] is True
    sent = server.requests[1]["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"]
    assert sent[1]["content"] == "first message" and sent[2]["content"] == reply("ml_lying_pass.md")
    assert (
        sent[3]["content"].startswith("second message")
        and '"1_data_availability"' in sent[3]["content"]
    )
    assert sent[0]["content"].startswith("You keep the gate state")  # the text of gate-tui prompt
    session = open_session(load_config(CONFIG), CONFIG, state_file=state, read_only=True)
    turns = turns_of(session.records)
    assert [(t.message, t.applied) for t in turns] == [
        ("first message", True),
        ("second message", True),
    ]
    assert session.decision.pass_ is True
    session.close()


def test_a_cut_off_reply_is_invalid_and_retrying_with_the_errors_fixes_it(tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    cut = reply("ml_good.md")[:400]
    with ScriptedServer(
        [Step(text=cut, finish_reason="length"), Step(text=reply("ml_good.md"))]
    ) as server:
        alone = gate_tui_ask(server, tmp_path / "alone.json", "go")
    assert alone.returncode == 2 and "cut off" in alone.stdout
    with ScriptedServer(
        [Step(text=cut, finish_reason="length"), Step(text=reply("ml_good.md"))]
    ) as server:
        done = gate_tui_ask(server, state, "go", "--retries", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    again = server.requests[1]["messages"][-1]["content"]
    assert "not accepted" in again and "cut off" in again and "Errors:" in again
    kinds = [
        (r["kind"], r.get("call_kind"), r.get("outcome"))
        for r in journal(state)
        if r["kind"] in ("model_call", "reply", "rejected")
    ]
    assert kinds == [
        ("model_call", "ask", "invalid"),
        ("model_call", "retry", "ok"),
        ("reply", None, None),
    ]


def test_auto_retry_is_bounded(tmp_path: Path) -> None:
    with ScriptedServer([Step(text="no json here at all")]) as server:
        done = gate_tui_ask(server, tmp_path / "s.json", "go", "--retries", "2")
    assert done.returncode == 2 and len(server.requests) == 3


@pytest.mark.parametrize(
    ("step", "words"),
    [
        (
            Step(status=401, error=f"invalid key {KEY}"),
            "refused the API key (HTTP 401): set OPENAI_API_KEY",
        ),
        (Step(status=404), "answered 404 for model 'scripted'"),
        (Step(garbage=True), "not a chat-completions stream"),
    ],
)
def test_endpoint_errors_exit_3_with_one_line_and_are_journaled(
    tmp_path: Path, step: Step, words: str
) -> None:
    state = tmp_path / "s.json"
    with ScriptedServer([step]) as server:
        done = gate_tui_ask(server, state, "go")
    assert done.returncode == 3 and done.stdout == ""
    lines = [line for line in done.stderr.splitlines() if words in line]
    assert len(lines) == 1 and server.base_url in lines[0]
    assert "Traceback" not in done.stderr and KEY not in done.stderr
    call = next(r for r in journal(state) if r["kind"] == "model_call")
    assert call["outcome"] == "error" and words in call["error"] and KEY not in json.dumps(call)


def test_a_dropped_stream_is_checked_as_cut_off_and_changes_nothing(tmp_path: Path) -> None:
    state = tmp_path / "s.json"
    with ScriptedServer([Step(text=reply("ml_good.md"), chunk=50, drop_after=6)]) as server:
        done = gate_tui_ask(server, state, "go")
    assert (
        done.returncode == 2
        and "closed the connection mid-reply after 300 characters" in done.stderr
    )
    records = journal(state)
    call = next(r for r in records if r["kind"] == "model_call")
    assert call["outcome"] == "dropped" and len(call["reply"]) == 300
    assert not any(r["kind"] == "reply" for r in records)


def test_usage_and_config_errors_exit_3(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "GATE_TUI_MODEL"))}
    env["XDG_CONFIG_HOME"] = str(tmp_path)
    base = [sys.executable, "-m", "gate_tui", "ask", str(CONFIG)]
    no_model = subprocess.run([*base, "hi"], capture_output=True, text=True, env=env)
    assert no_model.returncode == 3 and "no model name" in no_model.stderr
    bad_url = subprocess.run(
        [*base, "--model", "m", "--base-url", "ftp://x", "hi"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert bad_url.returncode == 3 and "not an http:// or https:// URL" in bad_url.stderr
    bad_retries = subprocess.run(
        [*base, "--model", "m", "--retries", "9", "hi"], capture_output=True, text=True, env=env
    )
    assert bad_retries.returncode == 3
