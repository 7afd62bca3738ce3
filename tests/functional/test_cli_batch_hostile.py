"""Batches handed hostile input: a BOM, blank lines, lone surrogates, bad "previous",
and Ctrl+C at any moment (always 130 "interrupted", never 70 or 0)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gate_tui.config.loading import load_config
from gate_tui.parsing.pipeline import empty_state
from tests.conftest import CONFIGS

ML = CONFIGS / "ml_project_intake.yaml"
GATE_TUI = [sys.executable, "-m", "gate_tui"]


def good_state() -> dict:
    state = empty_state(load_config(ML)).model_dump(mode="json")
    for key in state["gates"]:
        state["gates"][key] = {"raw": "answered", "classified": None}
    state["gates"]["1_data_availability"]["classified"] = "available"
    state["gates"]["4_data_privacy"]["classified"] = "approved"
    return state


def run_batch(tmp_path: Path, data: bytes) -> tuple[subprocess.CompletedProcess[str], list[dict]]:
    source = tmp_path / "in.jsonl"
    source.write_bytes(data)
    out = tmp_path / "out.jsonl"
    done = subprocess.run(
        [*GATE_TUI, "check", "--config", str(ML), "--jsonl", str(source), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done, [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def test_a_bom_is_ignored_and_blank_lines_are_counted(tmp_path: Path) -> None:
    line = json.dumps({"id": "a", "reply": json.dumps(good_state())}).encode()
    done, records = run_batch(
        tmp_path, b"\xef\xbb\xbf" + line + b"\n\n   \n" + line.replace(b'"a"', b'"b"') + b"\n"
    )
    assert done.returncode == 0, done.stderr
    assert [(r["id"], r["line"], r["ok"]) for r in records] == [("a", 1, True), ("b", 4, True)]
    assert "2 blank lines skipped" in done.stderr


def test_a_lone_surrogate_never_stops_the_batch(tmp_path: Path) -> None:
    bad = good_state()
    bad["summary"] = "a\ud800b"
    lines = [
        json.dumps({"id": 1, "reply": json.dumps(good_state())}),
        json.dumps(
            {"id": "\ud800", "reply": json.dumps(bad)}
        ),  # \ud800 escapes: valid JSON, not Unicode
        json.dumps({"id": 3, "reply": {"summary": "x\udfff"}}),
        json.dumps({"id": 4, "reply": json.dumps(good_state())}),
    ]
    done, records = run_batch(tmp_path, ("\n".join(lines) + "\n").encode())
    assert "internal error" not in done.stderr and done.returncode in (0, 1, 2)
    assert [r["line"] for r in records] == [1, 2, 3, 4], "one record per line, the batch went on"
    assert records[0]["ok"] and records[3]["ok"]
    second = records[1]
    if second["ok"]:  # accepted by today's parser: the exact text survives as a JSON escape
        assert second["result"]["canonical_state"]["summary"] == "a\ud800b"
    else:
        assert second["result"]["errors"][0]["field_path"]


def test_a_bad_previous_says_what_is_wrong(tmp_path: Path) -> None:
    line = json.dumps({"id": 1, "reply": {"gates": {}}, "previous": [1, 2]})
    _done, records = run_batch(tmp_path, (line + "\n").encode())
    message = records[0]["result"]["errors"][0]["message"]
    assert message == 'line 1: "previous": must be a JSON object holding a gate state'


@pytest.mark.parametrize("delay", [0.0, 0.3, 1.0])
def test_ctrl_c_during_a_batch_always_exits_130(tmp_path: Path, delay: float) -> None:
    state = json.dumps(good_state())
    source = tmp_path / "in.jsonl"
    with source.open("w") as handle:
        for index in range(200_000):
            handle.write(json.dumps({"id": index, "reply": state}) + "\n")
    out = tmp_path / "out.jsonl"
    process = subprocess.Popen(
        [
            *GATE_TUI,
            "check",
            "--config",
            str(ML),
            "--jsonl",
            str(source),
            "-j",
            "1",
            "-o",
            str(out),
        ],
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(
            signal.SIGINT, signal.SIG_DFL
        ),  # a background shell ignores SIGINT
    )
    deadline = time.monotonic() + 60
    while not (out.exists() and out.stat().st_size > 0):  # the batch is running
        assert process.poll() is None and time.monotonic() < deadline, "the batch never started"
        time.sleep(0.01)
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "gate-tui: interrupted" in err and "internal error" not in err


UNSAFE = {
    *range(0x00, 0x09),
    *range(0x0B, 0x20),
    *range(0x7F, 0xA0),
    *range(0x202A, 0x202F),
    *range(0x2066, 0x206A),
}


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_check_output_never_carries_control_or_bidi_characters(tmp_path: Path, fmt: str) -> None:
    hostile = "k\x1b]52;c;cHduZWQ=\x07\u202e\x9b2J"
    reply = tmp_path / "reply.json"
    state = good_state()
    state["summary"] = hostile
    state["gates"][hostile] = {"raw": hostile}
    reply.write_text(json.dumps(state), encoding="utf-8")
    done = subprocess.run(
        [*GATE_TUI, "check", "--config", str(ML), "--format", fmt, str(reply)],
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 2
    text = (done.stdout + done.stderr).decode("utf-8")
    assert [hex(ord(ch)) for ch in text if ord(ch) in UNSAFE and ch != "\n"] == []
    if fmt == "json":
        assert json.loads(done.stdout)["errors"][0]["code"] == "invalid_key", "still valid JSON"


def test_batch_records_carry_no_bidi_or_c1_characters_but_the_same_values(tmp_path: Path) -> None:
    state = good_state()
    state["summary"] = "sum \u202eevil\u202c \x85 \u200b"
    done, records = run_batch(
        tmp_path, (json.dumps({"id": "\u2066x", "reply": json.dumps(state)}) + "\n").encode()
    )
    raw = (tmp_path / "out.jsonl").read_text(encoding="utf-8")
    assert [hex(ord(ch)) for ch in raw if ord(ch) in UNSAFE and ch != "\n"] == []
    assert (
        records[0]["id"] == "\u2066x"
        and records[0]["result"]["canonical_state"]["summary"] == state["summary"]
    )
