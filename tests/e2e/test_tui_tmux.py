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
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.tui_helpers import ML_CONFIG, REPLIES

pytestmark = pytest.mark.tmux

GATE_TUI = Path(sys.executable).parent / "gate-tui"


def gate_tui(*args: str | Path) -> str:
    """The shell command running gate-tui with ``args`` (the installed command when there is one)."""
    program = [str(GATE_TUI)] if GATE_TUI.exists() else [sys.executable, "-m", "gate_tui"]
    return shlex.join([*program, *(str(arg) for arg in args)])


class Tmux:
    """A private tmux server (``-L``) holding one 120x40 window."""

    def __init__(self) -> None:
        self.socket = f"gatetui-test-{uuid.uuid4().hex[:8]}"

    def run(self, *args: str, check: bool = True) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            check=check,
            timeout=10,
        )
        return done.stdout

    def start(self, command: str, env: dict[str, str]) -> None:
        exports = " ".join(f"{key}={shlex.quote(value)}" for key, value in env.items())
        # COLUMNS/LINES inherited from the test runner would override the window size.
        shell = f"env -u COLUMNS -u LINES {exports} {command}; echo EXITED=$?; sleep 30"
        self.run("new-session", "-d", "-x", "120", "-y", "40", shell)

    def screen(self) -> str:
        return self.run("capture-pane", "-p")

    def wait_for(self, predicate: Callable[[str], bool], what: str, timeout: float = 60.0) -> str:
        """Poll the screen until ``predicate`` holds. The timeout is generous on purpose (the
        machines running the suite are shared); a passing test returns as soon as it holds."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen()
            if predicate(text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; screen:\n{text}")
            time.sleep(0.1)

    def cursor(self) -> tuple[int, int]:
        """Where the terminal's cursor is (Textual puts it at the focused text field's caret)."""
        x, y = self.run("display-message", "-p", "#{cursor_x} #{cursor_y}").split()
        return int(x), int(y)

    def focus_reply(self) -> None:
        """F2, then wait until the reply pane has the focus — a paste sent before that can go
        elsewhere (issue 17, item 9: a paste right after F2 during start-up is lost). The
        screen shows it two ways: the footer puts the pane's own keys (^z Undo) before the
        app's (^q Quit), and the terminal's cursor moves into the pane (right half, above the
        history)."""
        self.run("send-keys", "F2")

        def focused(screen: str) -> bool:
            rows = screen.rstrip("\n").splitlines()
            footer = rows[-1] if rows else ""
            x, y = self.cursor()
            pane_keys_first = (
                "^z Undo" in footer
                and "^q Quit" in footer
                and footer.index("^z Undo") < footer.index("^q Quit")
            )
            return pane_keys_first or (x >= 48 and y < 20)

        self.wait_for(focused, "the reply pane focused")

    def paste(self, path: Path) -> None:
        self.run("load-buffer", str(path))
        self.run("paste-buffer", "-p")

    def kill(self) -> None:
        self.run("kill-server", check=False)

    def app_pid(self) -> int:
        """The pid of the program the pane's shell runs (the shell is ``#{pane_pid}``; ``env`` execs it)."""
        shell = int(self.run("list-panes", "-F", "#{pane_pid}").split()[0])
        children = subprocess.run(
            ["pgrep", "-P", str(shell)], capture_output=True, text=True, check=False
        ).stdout.split()
        assert len(children) == 1, (
            f"expected one program under the pane's shell {shell}, found {children}"
        )
        pid = int(children[0])
        assert b"gate" in Path(f"/proc/{pid}/cmdline").read_bytes(), "the pane runs gate-tui"
        return pid


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux not installed")
    server = Tmux()
    yield server
    server.kill()


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
