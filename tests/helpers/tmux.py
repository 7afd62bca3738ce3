"""A private tmux server running ``gate-tui`` in a real terminal, and its pytest fixture."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

GATE_TUI = Path(sys.executable).parent / "gate-tui"


def gate_tui(*args: str | Path) -> str:
    """The shell command running gate-tui with ``args`` (the installed command when there is
    one)."""
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
        """The pid of the program the pane's shell runs (the shell is ``#{pane_pid}``; ``env``
        execs it)."""
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
