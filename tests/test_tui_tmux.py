"""End to end in a real terminal: tmux runs the installed ``gate-tui`` command.

``send-keys`` and a bracketed ``paste-buffer -p`` drive it, ``capture-pane -p`` reads the
screen. Skipped (with the reason) where tmux or the installed command is missing.
"""

from __future__ import annotations

import json
import shlex
import shutil
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


class Tmux:
    """A private tmux server (``-L``) holding one 120x40 window."""

    def __init__(self) -> None:
        self.socket = f"gatetui-test-{uuid.uuid4().hex[:8]}"

    def run(self, *args: str, check: bool = True) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=check, timeout=10)
        return done.stdout

    def start(self, command: str, env: dict[str, str]) -> None:
        exports = " ".join(f"{key}={shlex.quote(value)}" for key, value in env.items())
        # COLUMNS/LINES inherited from the test runner would override the window size.
        shell = f"env -u COLUMNS -u LINES {exports} {command}; echo EXITED=$?; sleep 30"
        self.run("new-session", "-d", "-x", "120", "-y", "40", shell)

    def screen(self) -> str:
        return self.run("capture-pane", "-p")

    def wait_for(self, predicate: Callable[[str], bool], what: str, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen()
            if predicate(text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; screen:\n{text}")
            time.sleep(0.1)

    def paste(self, path: Path) -> None:
        self.run("load-buffer", str(path))
        self.run("paste-buffer", "-p")

    def kill(self) -> None:
        self.run("kill-server", check=False)


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux not installed")
    if not GATE_TUI.exists():
        pytest.skip(f"the gate-tui command is not installed in {GATE_TUI.parent} (pip install -e .)")
    server = Tmux()
    yield server
    server.kill()


def test_paste_a_reply_in_a_real_terminal(tmux: Tmux, tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    command = f"{shlex.quote(str(GATE_TUI))} {shlex.quote(str(ML_CONFIG))} --new"
    tmux.start(command, {"GATE_TUI_STATE_DIR": str(state_dir), "TERM": "xterm-256color"})
    tmux.wait_for(lambda s: "NO PASS" in s and "1_data_availability" in s, "the editor's first screen")
    tmux.run("send-keys", "F2")
    time.sleep(0.3)
    tmux.paste(REPLIES / "ml_good.md")
    tmux.wait_for(lambda s: "If applied: PASS" in s, "the reply preview")
    tmux.run("send-keys", "C-j")
    screen = tmux.wait_for(lambda s: "PASS" in s and "NO PASS" not in s, "PASS after applying the reply")
    assert "assistant" in screen
    tmux.run("send-keys", "C-q")
    tmux.wait_for(lambda s: "EXITED=0" in s, "a clean exit")
    states = list(state_dir.rglob("state.json"))
    assert states, "the session wrote its state file"
    saved = json.loads(states[0].read_text(encoding="utf-8"))
    assert '"pass": true' in json.dumps(saved)
