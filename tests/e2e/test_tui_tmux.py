"""End to end in a real terminal: tmux runs the installed ``gate-tui`` command.

``send-keys`` and a bracketed ``paste-buffer -p`` drive it, ``capture-pane -p`` reads the
screen. Without the installed command, ``python -m gate_tui`` (the same entry point) runs
instead; skipped (with the reason) only where tmux is missing.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import time
from pathlib import Path

import pytest

from tests.helpers.tmux import Tmux, gate_tui
from tests.tui_helpers import ML_CONFIG, REPLIES

pytestmark = pytest.mark.tmux

def test_paste_a_reply_in_a_real_terminal(tmux: Tmux, tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    command = gate_tui(ML_CONFIG, "--new")
    tmux.start(command, {"GATE_TUI_STATE_DIR": str(state_dir), "TERM": "xterm-256color"})
    tmux.wait_for(
        lambda s: "NO PASS" in s and "1_data_availability" in s, "the editor's first screen"
    )
    tmux.focus_reply()
    tmux.paste(REPLIES / "ml_good.md")
    tmux.wait_for(lambda s: "If applied: PASS" in s, "the reply preview")
    tmux.run("send-keys", "C-j")
    tmux.wait_for(
        lambda s: "PASS" in s and "NO PASS" not in s and "assistant" in s,
        "PASS after applying the reply, by the assistant",
    )
    tmux.run("send-keys", "C-q")
    tmux.wait_for(lambda s: "EXITED=0" in s, "a clean exit")
    states = list(state_dir.rglob("state.json"))
    assert states, "the session wrote its state file"
    saved = json.loads(states[0].read_text(encoding="utf-8"))
    assert '"pass": true' in json.dumps(saved)


TIMELINE_ROW = re.compile(
    r"\b([0-9])\s+(?:NO PASS|PASS)\s+\d\d:\d\d:\d\d\s+(user|assistant)\s+(edit|reply)\b"
)


def timeline_rows(screen: str) -> list[tuple[str, str, str]]:
    """The timeline rows on screen: (index, actor, kind)."""
    return [match.groups() for line in screen.splitlines() for match in TIMELINE_ROW.finditer(line)]


EXPECTED_ROWS = [
    ("1", "user", "edit"),
    ("2", "user", "edit"),
    ("3", "assistant", "reply"),
]  # numbered from #1
PASSED = (
    "PASS · every required gate is answered"  # the decision panel's line (rows also say NO PASS)
)


def test_kill_9_mid_review_loses_nothing_shown_as_accepted(tmux: Tmux, tmp_path: Path) -> None:
    """Two edits and a reply, shown as accepted; kill -9; restart, resume: all three are back."""
    state_dir = tmp_path / "state"
    env = {"GATE_TUI_STATE_DIR": str(state_dir), "TERM": "xterm-256color", "GATE_TUI_NO_BLINK": "1"}
    command = gate_tui(ML_CONFIG)
    tmux.start(command, env)
    tmux.wait_for(
        lambda s: "NO PASS" in s and "1_data_availability" in s, "the editor's first screen"
    )
    tmux.run("send-keys", "F3")  # the next gate's field: a category
    tmux.run("send-keys", "Enter")
    tmux.wait_for(lambda s: "unavailable" in s, "the category menu")
    tmux.run("send-keys", "Down", "Enter")  # none → available
    tmux.wait_for(lambda s: timeline_rows(s) == EXPECTED_ROWS[:1], "the first edit in the timeline")
    tmux.run("send-keys", "F3")  # now 2_use_case: free text
    tmux.run("send-keys", "-l", "Rank tickets")
    tmux.run("send-keys", "Enter")
    tmux.wait_for(
        lambda s: timeline_rows(s) == EXPECTED_ROWS[:2], "the second edit in the timeline"
    )
    tmux.focus_reply()
    tmux.paste(REPLIES / "ml_good.md")
    tmux.wait_for(lambda s: "If applied: PASS" in s, "the reply preview")
    tmux.run("send-keys", "C-j")
    tmux.wait_for(
        lambda s: timeline_rows(s) == EXPECTED_ROWS and PASSED in s, "the reply accepted: PASS"
    )

    pid = tmux.app_pid()
    os.kill(pid, signal.SIGKILL)
    tmux.wait_for(lambda s: "EXITED=137" in s, "gate-tui killed")
    tmux.run("kill-session")

    tmux.start(command, env)
    tmux.wait_for(lambda s: "Resume session" in s and "3 transitions" in s, "the resume question")
    tmux.run("send-keys", "Enter")
    tmux.wait_for(
        lambda s: (
            timeline_rows(s) == EXPECTED_ROWS
            and PASSED in s
            and "Two years of labelled tickets" in s
        ),
        "the three transitions after resuming, and the resumed state in the form",
    )
    tmux.run("send-keys", "C-q")
    tmux.wait_for(lambda s: "EXITED=0" in s, "a clean exit")

    journals = list(state_dir.rglob("journal.jsonl"))
    assert len(journals) == 1, "resumed, not started afresh"
    records = [
        json.loads(line) for line in journals[0].read_text(encoding="utf-8").splitlines()[1:]
    ]
    moves = [(r.get("actor"), r.get("kind")) for r in records if r.get("kind") in ("edit", "reply")]
    assert moves == [("user", "edit"), ("user", "edit"), ("assistant", "reply")]
    saved = json.loads(journals[0].with_name("state.json").read_text(encoding="utf-8"))
    assert saved["decision"]["pass"] is True


def test_escapes_in_a_state_reach_the_screen_as_symbols_not_commands(
    tmux: Tmux, tmp_path: Path
) -> None:
    """A summary holding ESC[2J, OSC 52 (clipboard) and OSC 2 (title) changes nothing in
    the terminal: tmux gets no clipboard buffer, keeps its pane title, and shows ␛."""
    from gate_tui.config.loading import load_config
    from gate_tui.models import GateState
    from gate_tui.session.live import Session

    config = load_config(ML_CONFIG)
    hostile = "sum \x1b[2J\x1b]52;c;cHduZWQ=\x07\x1b]2;PWNED\x07 \u202eevil"
    session = Session.in_memory(
        config, ML_CONFIG, initial=GateState.model_validate({"summary": hostile, "gates": {}})
    )
    state_file = tmp_path / "hostile.json"
    assert session.save(state_file) is None
    env = {"GATE_TUI_STATE_DIR": str(tmp_path / "state"), "TERM": "xterm-256color"}
    exports = " ".join(f"{key}={shlex.quote(value)}" for key, value in env.items())
    command = gate_tui(ML_CONFIG, "--state", state_file)
    # The clipboard option is set before the editor starts, so an OSC 52 would be obeyed.
    tmux.run(
        "new-session",
        "-d",
        "-x",
        "120",
        "-y",
        "40",
        f"sleep 1; env -u COLUMNS -u LINES {exports} {command}; echo EXITED=$?; sleep 30",
    )
    tmux.run("set-option", "-g", "set-clipboard", "on")
    title_before = tmux.run("display-message", "-p", "#{pane_title}")
    tmux.wait_for(
        lambda s: "Summary" in s and "␛[2J" in s and "␛]52;c;" in s and "⟨U+202E⟩" in s,
        "the summary with visible escapes",
    )
    time.sleep(0.5)
    assert "PWNED" not in tmux.run("display-message", "-p", "#{pane_title}")
    assert tmux.run("display-message", "-p", "#{pane_title}") == title_before
    assert tmux.run("list-buffers", check=False).strip() == "", "no clipboard write reached tmux"
    assert "NO PASS" in tmux.screen(), "the screen was not cleared under the editor"
    tmux.run("send-keys", "C-q")
    tmux.wait_for(lambda s: "EXITED=0" in s, "a clean exit")
    assert json.loads(state_file.read_text(encoding="utf-8"))["state"]["summary"] == hostile, (
        "the stored text is exact"
    )


def test_f2_a_paste_and_ctrl_j_sent_with_the_first_frame_apply_the_paste(
    tmux: Tmux, tmp_path: Path
) -> None:
    """Keys and a bracketed paste that arrive while the editor is still starting are kept,
    in order: F2 focuses the reply pane, the paste lands there, Ctrl+J applies it."""
    state_dir = tmp_path / "state"
    tmux.start(
        gate_tui(ML_CONFIG, "--new"),
        {"GATE_TUI_STATE_DIR": str(state_dir), "TERM": "xterm-256color"},
    )
    tmux.wait_for(lambda s: "1_data_availability" in s, "the first frame", timeout=30)
    tmux.run("send-keys", "F2")
    tmux.paste(REPLIES / "ml_good.md")
    tmux.run("send-keys", "C-j")
    screen = tmux.wait_for(
        lambda s: PASSED in s, "PASS after the pasted reply was applied", timeout=30
    )
    assert "The reply pane is empty" not in screen
    tmux.run("send-keys", "C-q")
    tmux.wait_for(lambda s: "EXITED=0" in s, "a clean exit")
